import type { UnitOfWork } from "@petri/events";
import type { Clock, Principal } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { findExperiment, updateExperiment } from "../db/experiments.js";
import { type ExperimentRecord, loadRecord } from "../db/experiment-records.js";
import type { ExperimentsDb } from "../db/schema.js";
import type { RequestWarning } from "../domain/contracts.js";
import { assertCan, submissionStatus, transition } from "../domain/lifecycle/transitions.js";
import { lockOwned } from "./experiment-access.js";
import { recordSubmitted } from "./experiment-events.js";
import { acceptIntake } from "./intake.js";
import { estimateColumns, priceRequest } from "./pricing.js";
import {
  type CheckWebhookRegistration,
  webhookUrlOf,
  withCheckedWebhookUrl,
} from "./webhook-registration.js";

/**
 * Submits a draft: validates the stored draft in full (submit mode: 422 with every missing
 * or wrong field, 403 when unsafe), re-prices it, and moves it to open or pending_review
 * with the typical estimate as its hold; records ExperimentSubmitted (+ ExperimentOpened).
 * Only the requester; only from draft (409 invalid_state otherwise).
 *
 * Submitting registers the draft's webhook URL: it is resolved and checked before the
 * transaction (webhook-registration.ts; refused -> 422 invalid_webhook_url, unresolved -> a
 * warning), for the draft as read then; the transaction runs on the locked row and checks
 * again (outside it) should its URL differ.
 */
export function makeSubmitDraft(deps: {
  db: Kysely<ExperimentsDb>;
  clock: Clock;
  unitOfWork: UnitOfWork<ExperimentsDb>;
  checkWebhookUrl: CheckWebhookRegistration;
}) {
  return async function submitDraft(
    principal: Principal,
    experimentId: string,
  ): Promise<{ experiment: ExperimentRecord; warnings: RequestWarning[] }> {
    const now = deps.clock.now();
    // Only the requester's own draft is worth a lookup; the transaction refuses anything else.
    const seen = await findExperiment(deps.db, experimentId);
    const url =
      seen?.requester_account_id === principal.accountId && seen.status === "draft"
        ? webhookUrlOf(seen.request)
        : undefined;
    const result = await withCheckedWebhookUrl(deps.checkWebhookUrl, url, (checked) =>
      deps.unitOfWork.run(async (trx) => {
        const current = await lockOwned(trx, principal, experimentId);
        assertCan("submit", current.status);
        const intake = acceptIntake(
          current.request,
          "submit",
          now,
          checked.verdictFor(webhookUrlOf(current.request)),
        );
        const estimate = await priceRequest(trx, intake.request, now);
        const updated = await updateExperiment(trx, current, {
          status: transition("submit", current.status, submissionStatus(intake.reviewReasons)),
          experiment_type: intake.experimentType,
          title: intake.title,
          request: intake.request,
          ...estimateColumns(estimate),
          hold_cents: estimate.cost_typical_cents,
          review_reasons: intake.reviewReasons,
          safety_flags: intake.safetyFlags,
          submitted_at: now,
          updated_at: now,
        });
        const record = await loadRecord(trx, updated);
        await recordSubmitted(trx, record, now);
        return { experiment: record, warnings: intake.warnings };
      }),
    );
    return result;
  };
}
