/**
 * The experiments service's Experiment message, read as the marketplace needs it: the job
 * projection's change, the claiming operator and the dispute. Events without an experiment
 * (never sent by the experiments service) are refused, so they are retried and dead-lettered
 * rather than silently applied.
 */
import {
  type Dispute,
  type Experiment,
  ExperimentStatus,
  type JobRequirements,
} from "@petri/contracts/experiments";
import { type EventEnvelope, envelopeOccurredAt, envelopeVersion } from "@petri/events";
import type { JobChange } from "../domain/jobs/projection.js";
import type { StoredJobRequirements } from "../domain/jobs/requirements.js";
import type { ResolvedDispute } from "../app/settle-dispute.js";

/** "open", "in_progress", ... ("unspecified" for a value this build does not know). */
export function statusName(status: ExperimentStatus): string {
  const name = ExperimentStatus[status] as string | undefined;
  return name === undefined ? "unspecified" : name.toLowerCase();
}

export function experimentOf(
  payload: { experiment?: Experiment | undefined },
  envelope: EventEnvelope,
): Experiment {
  if (!payload.experiment) throw new Error(`${envelope.type} ${envelope.id} carries no experiment`);
  return payload.experiment;
}

function storedRequirements(experiment: Experiment, job: JobRequirements | undefined): StoredJobRequirements {
  return {
    experiment_type: job?.experimentType || experiment.experimentType,
    bsl_level: job?.bslLevel ?? "",
    needs_human_samples_approval: job?.needsHumanSamplesApproval ?? false,
    needs_animal_samples_approval: job?.needsAnimalSamplesApproval ?? false,
    needs_hazardous_chemicals_approval: job?.needsHazardousChemicalsApproval ?? false,
    equipment_required: [...(job?.equipmentRequired ?? [])],
    budget_cents: Number(job?.budgetCents ?? 0n),
    deadline: job?.deadline ?? "",
    priority: job?.priority ?? "",
    desired_turnaround_days: job?.desiredTurnaroundDays ?? 0,
    menu_tags: [...(job?.menuTags ?? [])],
    custom_protocol: job?.customProtocol ?? false,
    category: job?.category ?? "",
    // Private unless the request says otherwise: a missing setting must not expose a title.
    privacy: job?.privacy || "private",
  };
}

/** The job projection's view of the experiment after the event. */
export function jobChangeOf(experiment: Experiment, envelope: EventEnvelope): JobChange {
  return {
    experimentId: experiment.id,
    status: statusName(experiment.status),
    requesterAccountId: experiment.requesterAccountId,
    title: experiment.title,
    requirements: storedRequirements(experiment, experiment.job),
    operatorId: experiment.operator?.operatorId || null,
    version: envelopeVersion(envelope),
    occurredAt: envelopeOccurredAt(envelope) ?? new Date(0),
  };
}

/** The claiming operator's id ("" before a claim). */
export function operatorIdOf(experiment: Experiment): string {
  return experiment.operator?.operatorId ?? "";
}

export function resolvedDisputeOf(experiment: Experiment, dispute: Dispute | undefined): ResolvedDispute {
  const source = dispute ?? experiment.dispute;
  if (!source) throw new Error(`dispute resolution of ${experiment.id} carries no dispute`);
  return {
    experimentId: experiment.id,
    operatorId: source.operatorId || operatorIdOf(experiment),
    outcome: source.outcome,
    requesterCents: Number(source.requesterAmountCents),
    operatorCents: Number(source.operatorAmountCents),
    raisedFrom: source.raisedFrom,
  };
}
