import { type Clock, ValidationError } from "@petri/service-kit";
import type { RequestError, RequestWarning, SafetyFlag } from "../domain/contracts.js";
import { parseJsonText, validateRequest } from "./intake.js";

export interface RequestValidation {
  valid: boolean;
  errors: RequestError[];
  warnings: RequestWarning[];
  safety_flags: SafetyFlag[];
}

/**
 * POST /validate: the full check of a request (submit mode) without storing anything. Never
 * refuses: an unreadable body is an invalid request with one error at path "".
 */
export function makeValidateExperiment(deps: { clock: Clock }) {
  return function validateExperiment(requestJson: string): RequestValidation {
    let body: unknown;
    try {
      body = parseJsonText(requestJson);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return {
        valid: false,
        errors: error.fieldErrors.map((e) => ({ path: e.field, code: "invalid_value", message: e.message })),
        warnings: [],
        safety_flags: [],
      };
    }
    const result = validateRequest(body, "submit", deps.clock.now());
    return {
      valid: result.valid,
      errors: result.errors,
      warnings: result.warnings,
      safety_flags: result.safety_flags,
    };
  };
}
