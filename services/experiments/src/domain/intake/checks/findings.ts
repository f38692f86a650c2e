/**
 * What the intake checks report, collected in the order the checks run (that order is the
 * order of the errors and warnings in the response).
 */
import type { RequestError, RequestWarning, SafetyFinding } from "../../contracts.js";

/** A required field that was not sent: an error in submit mode, a warning in draft mode. */
export interface Missing {
  path: string;
  message: string;
}

export interface Findings {
  errors: RequestError[];
  warnings: RequestWarning[];
  missing: Missing[];
  safety: SafetyFinding[];
}

export function emptyFindings(): Findings {
  return { errors: [], warnings: [], missing: [], safety: [] };
}
