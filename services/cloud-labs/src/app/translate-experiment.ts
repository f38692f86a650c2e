import {
  NotFoundError,
  type Principal,
  type ReadModelArrivals,
  type ReadModelWait,
  ValidationError,
  newId,
} from "@petri/service-kit";
import { settledExperimentView } from "@petri/events";
import { insertSubmission } from "../db/submissions.js";
import type { SubmissionRow } from "../db/schema.js";
import type { ChangingDeps } from "./deps.js";
import { recordStatusChanged } from "./submission-events.js";
import { type Translation, translateIntake } from "./translation.js";

export interface TranslateExperimentDeps extends ChangingDeps {
  adapterFor(providerId: string): "sandbox" | "http";
  wakeWorker(): void;
  arrivals: ReadModelArrivals;
  wait: ReadModelWait;
}

/**
 * POST /cloud-labs/experiments/{id}/translate: translates one of the caller's submitted
 * experiments for a provider and records a submission (pending) with the protocol, in one
 * transaction with its SubmissionStatusChanged event; the worker then sends it to the lab.
 * The experiment is this service's view of it (experiment_views, fed by the experiments
 * events), never what a caller relayed. Only the requester (another account's experiment is
 * 404, staff too: a submission spends the requester's lab budget); a draft is 422 (submit it
 * first).
 */
export function makeTranslateExperiment(deps: TranslateExperimentDeps) {
  return async function translateExperiment(
    principal: Principal,
    input: { experimentId: string; providerId: string },
  ): Promise<{ translation: Translation; submission: SubmissionRow }> {
    const experiment = await settledExperimentView(deps, principal.accountId, input.experimentId);
    if (!experiment || experiment.requesterAccountId !== principal.accountId)
      throw new NotFoundError("experiment", input.experimentId);
    if (experiment.status === "draft")
      throw new ValidationError("a draft cannot be sent to a lab", [
        { field: "experiment_id", code: "invalid_value", message: "submit the draft first" },
      ]);
    const translation = translateIntake(JSON.parse(experiment.requestJson) as unknown, input.providerId);
    const now = deps.clock.now();
    const submission = await deps.unitOfWork.run(async (trx) => {
      const row = await insertSubmission(trx, {
        id: newId("cls", now),
        owner_account_id: principal.accountId,
        experiment_id: experiment.id,
        provider_id: translation.providerId,
        adapter: deps.adapterFor(translation.providerId),
        provider_submission_id: null,
        protocol_format: translation.protocolFormat,
        translated_protocol: translation.protocol,
        plan: translation.plan,
        status: "pending",
        error: null,
        estimated_cost_cents: translation.estimatedCostCents,
        turnaround_min_days: translation.turnaroundDays.min,
        turnaround_max_days: translation.turnaroundDays.max,
        next_check_at: now,
        created_at: now,
        submitted_at: null,
        started_at: null,
        completed_at: null,
        updated_at: now,
      });
      await recordStatusChanged(trx, row, "", now);
      return row;
    });
    deps.wakeWorker();
    return { translation, submission };
  };
}
