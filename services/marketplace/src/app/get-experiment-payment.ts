import { NotFoundError, type Principal } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { findJob } from "../db/jobs.js";
import { type StoredPosting, loadPostings } from "../db/ledger-repository.js";
import type { MarketplaceDb } from "../db/schema.js";
import { canSeeExperiment } from "../domain/authorization.js";
import {
  type LedgerSummary,
  type PaymentStatus,
  paymentStateOf,
  paymentStatusOf,
  summarize,
} from "../domain/ledger/experiment-ledger.js";

export interface ExperimentPaymentView {
  experimentId: string;
  summary: LedgerSummary;
  status: PaymentStatus;
  postings: StoredPosting[];
}

/**
 * The escrow of an experiment: its summary and postings, for its requester (as the job
 * projection knows it) or staff; anyone else, or an experiment the marketplace has not seen,
 * 404. An open dispute shows as status "disputed".
 */
export function makeGetExperimentPayment(deps: { db: Kysely<MarketplaceDb> }) {
  return async function getExperimentPayment(
    principal: Principal,
    experimentId: string,
  ): Promise<ExperimentPaymentView> {
    const job = await findJob(deps.db, experimentId);
    if (!job || !canSeeExperiment(principal, job.requesterAccountId))
      throw new NotFoundError("experiment", experimentId);
    const stored = await loadPostings(deps.db, experimentId);
    const ledger = { experimentId, postings: stored.map((s) => s.posting) };
    return {
      experimentId,
      summary: summarize(experimentId, ledger.postings),
      status: paymentStatusOf(paymentStateOf(ledger), job.status === "disputed"),
      postings: stored,
    };
  };
}
