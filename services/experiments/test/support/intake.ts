/** Helpers shared by the intake tests (not part of the public API). */
import type { ExperimentTypeName } from "@petri/contracts/vocabulary";
import { FIXTURE_NOW, fullRequests, validRequests } from "@petri/fixtures";
import {
  validateExperimentRequest,
  type ValidationMode,
  type ValidationResult,
} from "../../src/domain/intake/validate-request.js";

export type Json = Record<string, any>;

export function minimal(type: ExperimentTypeName): Json {
  return structuredClone(validRequests[type]) as Json;
}

export function full(type: ExperimentTypeName): Json {
  return structuredClone(fullRequests[type]) as Json;
}

export function run(
  input: unknown,
  mode: ValidationMode = "submit",
  now: Date = FIXTURE_NOW,
): ValidationResult {
  return validateExperimentRequest(input, { mode, now });
}

export function warningCodes(result: ValidationResult): string[] {
  return result.warnings.map((w) => w.code);
}

export function errorAt(result: ValidationResult, path: string) {
  return result.errors.filter((e) => e.path === path);
}
