/**
 * What matching needs to know about a job (an open experiment). The job feed builds it from the
 * experiments events; defined here (and re-exported by ../matching) so that operators and
 * matching share one input type without a module cycle.
 */
import type { ExperimentTypeName, TurnaroundPriorityName } from "@petri/contracts/vocabulary";
import type { SupportedBslLevel } from "./types.js";

export interface JobRequirements {
  experiment_type: ExperimentTypeName;
  /** Stored spelling (D19); BSL-3+ never reaches an open job. */
  bsl: SupportedBslLevel;
  needs_human_samples_approval: boolean;
  needs_animal_samples_approval: boolean;
  needs_hazardous_chemicals_approval: boolean;
  /** Equipment names; matched case-insensitively after trimming and collapsing whitespace. */
  equipment_required: readonly string[];
  /** The requester's budget ceiling in USD; undefined when the request states none. */
  budget_usd?: number;
  desired_turnaround_days?: number;
  /** ISO date (YYYY-MM-DD, end of that UTC day) or date-time. */
  deadline?: string;
  priority: TurnaroundPriorityName;
  /** Optional finer capability hints: menu tags of the assay (e.g. qpcr_taqman). */
  menu_tags?: readonly string[];
  /** The request brings its own (custom) protocol; implied for the CUSTOM type. */
  custom_protocol?: boolean;
}

/** Equipment / tag name normal form: trimmed, inner whitespace collapsed, lower case. */
export function normalizeName(name: string): string {
  return name.trim().replace(/\s+/g, " ").toLowerCase();
}
