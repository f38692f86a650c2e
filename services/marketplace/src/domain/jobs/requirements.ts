/**
 * A job's requirements as the marketplace stores them: petri.experiments.v1.JobRequirements in
 * snake_case, event-carried from the experiments service, and their reading as the matching
 * input (../operators/job.ts).
 */
import {
  EXPERIMENT_TYPES,
  type ExperimentTypeName,
  TURNAROUND_PRIORITIES,
  type TurnaroundPriorityName,
} from "@petri/contracts/vocabulary";
import { parseBsl } from "../operators/bsl.js";
import type { JobRequirements } from "../operators/job.js";

export interface StoredJobRequirements {
  experiment_type: string;
  /** "BSL-1" or "BSL-2". */
  bsl_level: string;
  needs_human_samples_approval: boolean;
  needs_animal_samples_approval: boolean;
  needs_hazardous_chemicals_approval: boolean;
  equipment_required: string[];
  /** The requester's ceiling in cents; 0 when none is stated. */
  budget_cents: number;
  /** ISO date or date-time; "" when none. */
  deadline: string;
  priority: string;
  /** 0 when none is stated. */
  desired_turnaround_days: number;
  menu_tags: string[];
  custom_protocol: boolean;
  category: string;
  /** open, delayed_6mo, delayed_12mo, private. */
  privacy: string;
}

function isExperimentType(value: string): value is ExperimentTypeName {
  return (EXPERIMENT_TYPES as readonly string[]).includes(value);
}

function isPriority(value: string): value is TurnaroundPriorityName {
  return (TURNAROUND_PRIORITIES as readonly string[]).includes(value);
}

/**
 * The matching input of a stored job, or undefined when the job cannot be matched (an unknown
 * experiment type or an unsupported BSL: no lab may take it, so it is never offered).
 */
export function matchingRequirements(stored: StoredJobRequirements): JobRequirements | undefined {
  const bsl = parseBsl(stored.bsl_level);
  if (!isExperimentType(stored.experiment_type) || bsl === null) return undefined;
  const job: JobRequirements = {
    experiment_type: stored.experiment_type,
    bsl,
    needs_human_samples_approval: stored.needs_human_samples_approval,
    needs_animal_samples_approval: stored.needs_animal_samples_approval,
    needs_hazardous_chemicals_approval: stored.needs_hazardous_chemicals_approval,
    equipment_required: stored.equipment_required,
    priority: isPriority(stored.priority) ? stored.priority : "standard",
    menu_tags: stored.menu_tags,
    custom_protocol: stored.custom_protocol,
  };
  if (stored.budget_cents > 0) job.budget_usd = stored.budget_cents / 100;
  if (stored.desired_turnaround_days > 0) job.desired_turnaround_days = stored.desired_turnaround_days;
  if (stored.deadline !== "") job.deadline = stored.deadline;
  return job;
}

/** The deadline as a calendar date (a date-time becomes its UTC date); "" when none or unreadable. */
export function deadlineDate(deadline: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(deadline)) return deadline;
  const at = Date.parse(deadline);
  return Number.isNaN(at) ? "" : new Date(at).toISOString().slice(0, 10);
}
