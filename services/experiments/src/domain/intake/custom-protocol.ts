/**
 * Completeness of a custom protocol beyond the shape its schema checks (schema/protocol.ts):
 * the steps are numbered 1..n in order, and the protocol names its critical parameters.
 *
 * Critical parameters are required of the protocol as a whole, not of each step: a step such
 * as "read the plate" or "photograph the plates" may have none, and clients of other
 * marketplaces leave the field out of such steps. So at least one step must carry them
 * (missing_required otherwise: an error on submission, a warning in a draft); each step without
 * them is a warning (rules/growth-custom.ts).
 */
import type { RequestError } from "../contracts.js";
import type { NormalizedDraft } from "./model.js";

export interface CustomProtocolProblems {
  errors: RequestError[];
  /** Required content that is absent, with its path and message. */
  missing: Array<{ path: string; message: string }>;
}

export function customProtocolProblems(
  protocol: NormalizedDraft["custom_protocol"],
  at: string,
): CustomProtocolProblems {
  const problems: CustomProtocolProblems = { errors: [], missing: [] };
  const steps = protocol?.steps ?? [];
  if (steps.length === 0) return problems;

  // First break only: later ones follow from it.
  const brokenAt = steps.findIndex(
    (step, index) => step?.step_number !== undefined && step.step_number !== index + 1,
  );
  if (brokenAt >= 0) {
    problems.errors.push({
      path: `${at}.steps[${brokenAt}].step_number`,
      code: "invalid_value",
      message: `Steps must be numbered 1..n in order: step ${brokenAt + 1} is numbered ${String(steps[brokenAt]?.step_number)}`,
    });
  }

  if (!steps.some((step) => (step?.critical_parameters ?? []).length > 0)) {
    problems.missing.push({
      path: `${at}.steps`,
      message:
        "A custom protocol needs critical parameters: list what must be controlled (critical_parameters) in at least one step",
    });
  }
  return problems;
}
