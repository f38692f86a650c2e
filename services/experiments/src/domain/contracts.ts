/**
 * The seams between the experiments domain modules (issue 4). The intake validator
 * (domain/intake), the estimator (domain/estimate) and the template catalogue
 * (domain/templates) are pure; the use cases in app/ combine them.
 */

/** An error that makes a request invalid (docs/api.md validation codes). */
export interface RequestError {
  /** JSON path into the request as sent, e.g. "turnaround_budget.budget_max_usd". */
  path: string;
  code: "missing_required" | "invalid_value" | "invalid_experiment_type" | "safety_violation";
  message: string;
}

/** A warning does not make a request invalid. */
export interface RequestWarning {
  path: string;
  /** e.g. "low_replicates", or an assay rule id such as "mic.inoculum_out_of_range". */
  code: string;
  message: string;
  suggestion?: string;
}

export type SafetyFlag = "bsl_level_exceeded" | "controlled_substance" | "human_subjects" | "safety_rejected";

export interface SafetyFinding {
  flag: SafetyFlag;
  path: string;
  message: string;
}

/** Why staff must look at a request before it opens (status pending_review). */
export type ReviewReason =
  | "protocol_design_requested"
  | "custom_protocol"
  | "bsl2_human_derived_material"
  | "flagged_hazard"
  /** The request involves human subjects/participants (IRB-type oversight); see domain/intake. */
  | "human_subjects";
