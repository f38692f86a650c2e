/**
 * The outcome of intake from what the checks found: missing fields become errors (submit) or
 * warnings (draft), rejecting safety findings add `safety_rejected`, staff-review reasons are
 * derived from the stored form.
 */
import type { ExperimentTypeName } from "@petri/contracts/vocabulary";
import type { RequestError, RequestWarning, ReviewReason, SafetyFinding, SafetyFlag } from "../contracts.js";
import type { Findings } from "./checks/findings.js";
import type { NormalizedDraft, NormalizedRequest } from "./model.js";

export type ValidationMode = "submit" | "draft";

export interface ValidationResult {
  valid: boolean;
  errors: RequestError[];
  warnings: RequestWarning[];
  /** Every safety finding with its path. */
  safety: SafetyFinding[];
  /** The distinct flags of `safety`, in docs/api.md order. */
  safety_flags: SafetyFlag[];
  /** The stored form; present when valid and complete. */
  request?: NormalizedRequest;
  /** The normalised form, possibly incomplete; present when valid (use it to store drafts). */
  draft?: NormalizedDraft;
  /** Why staff must review the request before it opens (status pending_review). */
  review_reasons: ReviewReason[];
}

const FLAG_ORDER: readonly SafetyFlag[] = [
  "bsl_level_exceeded",
  "controlled_substance",
  "human_subjects",
  "safety_rejected",
];
const REVIEW_ORDER: readonly ReviewReason[] = [
  "protocol_design_requested",
  "custom_protocol",
  "bsl2_human_derived_material",
  "flagged_hazard",
  "human_subjects",
];

export function validationResult(
  findings: Findings,
  outcome: { mode: ValidationMode; draft?: NormalizedDraft; experimentType?: ExperimentTypeName },
): ValidationResult {
  const { warnings, safety } = findings;
  const { mode, draft } = outcome;
  const errors = [...findings.errors];
  const missing = dedupe(findings.missing);
  if (mode === "submit") {
    errors.push(
      ...missing.map((m) => ({ path: m.path, code: "missing_required" as const, message: m.message })),
    );
  } else {
    warnings.unshift(
      ...missing.map((m) => ({
        path: m.path,
        code: "missing_required",
        message: m.message,
        suggestion: "Fill this in before submitting the request.",
      })),
    );
  }

  addSafetyRejection(safety);
  const present = new Set(safety.map((f) => f.flag));
  const safetyFlags = FLAG_ORDER.filter((flag) => present.has(flag));

  const finalErrors = dedupe(errors);
  const valid = finalErrors.length === 0;
  const result: ValidationResult = {
    valid,
    errors: finalErrors,
    warnings: dedupe(warnings),
    safety,
    safety_flags: safetyFlags,
    review_reasons: draft ? reviewReasons(draft, outcome.experimentType, present.has("human_subjects")) : [],
  };
  if (valid && draft) {
    result.draft = draft;
    if (missing.length === 0 && outcome.experimentType)
      result.request = draft as unknown as NormalizedRequest;
  }
  return result;
}

/** A controlled substance or BSL-3+ rejects the request: one `safety_rejected` finding says why. */
function addSafetyRejection(safety: SafetyFinding[]): void {
  const rejecting = safety.filter(
    (f) => f.flag === "bsl_level_exceeded" || f.flag === "controlled_substance",
  );
  if (rejecting.length === 0) return;
  const reasons = [
    ...new Set(
      rejecting.map((f) =>
        f.flag === "bsl_level_exceeded" ? "biosafety level above BSL-2" : "controlled substance",
      ),
    ),
  ];
  safety.push({ flag: "safety_rejected", path: "", message: `Rejected for safety: ${reasons.join(", ")}` });
}

function dedupe<T extends { path: string; message: string; code?: string }>(items: readonly T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = `${item.code ?? ""}\u0000${item.path}\u0000${item.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function reviewReasons(
  draft: NormalizedDraft,
  type: ExperimentTypeName | undefined,
  humanSubjects: boolean,
): ReviewReason[] {
  const reasons = new Set<ReviewReason>();
  if (draft.protocol?.type === "protocol_design_requested") reasons.add("protocol_design_requested");
  if (type === "CUSTOM" || draft.protocol?.type === "custom" || draft.custom_protocol !== undefined)
    reasons.add("custom_protocol");
  if (draft.compliance.bsl === "BSL-2" && draft.compliance.human_derived_material)
    reasons.add("bsl2_human_derived_material");
  const { compliance } = draft;
  if (
    compliance.hazardous_chemicals ||
    compliance.export_control_or_sanctions_risk ||
    (compliance.hazard_notes ?? "").trim() !== "" ||
    draft.materials_provided.some((m) => m?.hazardous === true)
  ) {
    reasons.add("flagged_hazard");
  }
  if (humanSubjects) reasons.add("human_subjects");
  return REVIEW_ORDER.filter((r) => reasons.has(r));
}
