import type { UnitOfWork } from "@petri/events";
import type { Clock, Principal } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { findExperiment, updateExperiment } from "../db/experiments.js";
import { type ExperimentRecord, loadRecord } from "../db/experiment-records.js";
import type { ExperimentRow, ExperimentsDb } from "../db/schema.js";
import type { JsonObject } from "../domain/lifecycle/protocol-design.js";
import { can, transition } from "../domain/lifecycle/transitions.js";
import { applyPatch, mergePatch, parsePatch } from "../domain/patch.js";
import { lockOwned } from "./experiment-access.js";
import { recordUpdated } from "./experiment-events.js";
import { acceptIntake, parseJsonText } from "./intake.js";
import { estimateColumns, priceRequest } from "./pricing.js";
import {
  type CheckWebhookRegistration,
  webhookUrlOf,
  withCheckedWebhookUrl,
} from "./webhook-registration.js";

/**
 * PATCH /experiments/{id}: constraints, turnaround_budget, turnaround_days,
 * turnaround_priority and communication_preferences only (422 naming any other field), and
 * only in draft, pending_review or open, i.e. before a claim (409 invalid_state with
 * details.status and allowed_from otherwise). The merged request is validated again (422 /
 * 403 like a create; a draft in draft mode), re-priced, the hold becomes the new typical
 * estimate (drafts hold nothing), the version is bumped and ExperimentUpdated records the
 * new hold (not for drafts). An empty patch changes nothing.
 *
 * A patch that changes the webhook URL of a submitted request registers the new URL: it is
 * resolved and checked before the transaction (webhook-registration.ts; refused -> 422
 * invalid_webhook_url and nothing changes; unresolved -> saved, and logged, since this
 * response carries no warnings). A draft's URL is checked when the draft is submitted.
 */
export function makeUpdateExperiment(deps: {
  db: Kysely<ExperimentsDb>;
  clock: Clock;
  unitOfWork: UnitOfWork<ExperimentsDb>;
  checkWebhookUrl: CheckWebhookRegistration;
}) {
  return async function updateExperimentUseCase(
    principal: Principal,
    input: { experimentId: string; patchJson: string },
  ): Promise<ExperimentRecord> {
    const patch = parsePatch(parseJsonText(input.patchJson, "the patch"));
    const now = deps.clock.now();
    // Only the requester's own experiment is worth a lookup; the transaction refuses anything else.
    const seen = await findExperiment(deps.db, input.experimentId);
    const url =
      seen?.requester_account_id === principal.accountId ? webhookUrlToRegister(seen, patch) : undefined;
    const outcome = await withCheckedWebhookUrl(deps.checkWebhookUrl, url, (checked) =>
      deps.unitOfWork.run(async (trx) => {
        const current = await lockOwned(trx, principal, input.experimentId);
        transition("update", current.status);
        if (Object.keys(patch).length === 0) return { row: await loadRecord(trx, current), changed: false };
        const draft = current.status === "draft";
        const intake = acceptIntake(
          applyPatch(current.request, patch),
          draft ? "draft" : "submit",
          now,
          checked.verdictFor(webhookUrlToRegister(current, patch)),
        );
        const estimate = await priceRequest(trx, intake.request, now);
        const updated = await updateExperiment(trx, current, {
          request: intake.request,
          raw_request: mergePatch(current.raw_request, patch),
          ...estimateColumns(estimate),
          hold_cents: draft ? 0 : estimate.cost_typical_cents,
          // A draft's review reasons are provisional until it is submitted; a submitted
          // request keeps the ones it was reviewed (or opened) with.
          ...(draft ? { review_reasons: intake.reviewReasons, safety_flags: intake.safetyFlags } : {}),
          updated_at: now,
        });
        const record = await loadRecord(trx, updated);
        if (!draft) await recordUpdated(trx, record, now);
        return { row: record, changed: true };
      }),
    );
    return outcome.row;
  };
}

/**
 * The URL a patch registers: the merged request's webhook URL when the experiment is
 * submitted (not a draft), may still change, and the patch changes that URL; else none.
 */
function webhookUrlToRegister(row: ExperimentRow, patch: JsonObject): string | undefined {
  if (row.status === "draft" || !can("update", row.status) || Object.keys(patch).length === 0)
    return undefined;
  const next = webhookUrlOf(applyPatch(row.request, patch));
  return next === webhookUrlOf(row.request) ? undefined : next;
}
