import { type Clock, NotFoundError, type Principal } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { findDispute } from "../db/disputes.js";
import { type ExperimentRecord, loadRecord } from "../db/experiment-records.js";
import { findExperiment } from "../db/experiments.js";
import type { DisputeRow, ExperimentsDb } from "../db/schema.js";
import {
  type AcceptanceCriteria,
  type AcceptanceEvaluation,
  evaluateAcceptance,
} from "../domain/acceptance/index.js";
import { authorize } from "../domain/authorization.js";
import { type ResultsRecord, toAcceptanceResults } from "../domain/results/index.js";
import { signedResults } from "./result-links.js";

export interface DisputeView {
  dispute: DisputeRow;
  experiment: ExperimentRecord;
  results: ResultsRecord;
  urlsExpireAt: Date;
  /** The automatic check of the request's acceptance criteria against the results (advisory). */
  evaluation: AcceptanceEvaluation;
}

/**
 * Staff: one dispute with everything needed to decide it: the experiment, the results record
 * (signed file URLs) and the automatic evaluation of the request's acceptance criteria
 * against the delivered results (domain/acceptance; staff decide, the verdict advises).
 */
export function makeGetDispute(deps: {
  db: Kysely<ExperimentsDb>;
  clock: Clock;
  signingKey(): Promise<Uint8Array>;
}) {
  return async function getDispute(principal: Principal, disputeId: string): Promise<DisputeView> {
    authorize(principal, "staff");
    const dispute = await findDispute(deps.db, disputeId);
    if (!dispute) throw new NotFoundError("dispute", disputeId);
    const row = await findExperiment(deps.db, dispute.experiment_id);
    if (!row)
      throw new Error(`dispute ${dispute.id} refers to a missing experiment ${dispute.experiment_id}`);
    const experiment = await loadRecord(deps.db, row);
    const signed = await signedResults(deps.db, row, await deps.signingKey(), deps.clock.now());
    const criteria = (row.request as { acceptance_criteria?: AcceptanceCriteria }).acceptance_criteria;
    return {
      dispute,
      experiment,
      results: signed.record,
      urlsExpireAt: signed.urlsExpireAt,
      evaluation: evaluateAcceptance(criteria, toAcceptanceResults(signed.stored)),
    };
  };
}
