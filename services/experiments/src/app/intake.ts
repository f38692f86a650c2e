/**
 * The intake check shared by the use cases that store a request (create, submit a draft,
 * PATCH, accept a protocol proposal): parse the JSON text, validate it (domain/intake with
 * the template catalogue's parameter check) and turn a refusal into the domain error the
 * contract names: a safety rejection first (403 safety_rejected, with the flags and the
 * findings), then any other error (422 validation_failed, one field violation per error,
 * including a webhook URL refused at registration).
 */
import { SafetyRejectedError, ValidationError, parseSafeJson } from "@petri/service-kit";
import type { RequestWarning, ReviewReason, SafetyFlag } from "../domain/contracts.js";
import {
  type ValidationMode,
  type ValidationResult,
  validateExperimentRequest,
} from "../domain/intake/index.js";
import type { JsonObject } from "../domain/lifecycle/protocol-design.js";
import { checkTemplateParameters } from "../domain/templates/index.js";
import { WEBHOOK_URL_PATH, type WebhookRegistration } from "./webhook-registration.js";

/** Request bodies above this are refused before parsing (the gateway's body limit is the first line). */
export const MAX_REQUEST_JSON_BYTES = 256 * 1024;

/** JSON text -> value; a ValidationError (field "") when it is too large, too deep or not JSON. */
export function parseJsonText(text: string, what = "the request body"): unknown {
  if (Buffer.byteLength(text, "utf8") > MAX_REQUEST_JSON_BYTES)
    throw new ValidationError(`${what} is too large`, [
      {
        field: "",
        code: "invalid_value",
        message: `${what} must be at most ${MAX_REQUEST_JSON_BYTES} bytes`,
      },
    ]);
  // Nesting bounded and NUL / lone surrogates refused here: the request is stored as jsonb.
  return parseSafeJson("", text === "" ? "{}" : text, { what });
}

export function validateRequest(body: unknown, mode: ValidationMode, now: Date): ValidationResult {
  return validateExperimentRequest(body, { mode, now, checkTemplate: checkTemplateParameters });
}

export interface AcceptedIntake {
  /** The stored form: the complete normalised request, or for a draft the normalised draft. */
  request: JsonObject;
  /** True when nothing required is missing (always, in submit mode). */
  complete: boolean;
  experimentType: string | null;
  title: string | null;
  warnings: RequestWarning[];
  reviewReasons: ReviewReason[];
  /** Flags that did not reject the request (e.g. human_subjects). */
  safetyFlags: SafetyFlag[];
}

/** True when the validation rejected the request for safety (BSL-3+, controlled substances). */
export function rejectedForSafety(result: ValidationResult): boolean {
  return (
    result.safety_flags.includes("safety_rejected") ||
    result.errors.some((error) => error.code === "safety_violation")
  );
}

/** Throws SafetyRejectedError or ValidationError unless `result` accepts the request. */
export function acceptValidation(result: ValidationResult, mode: ValidationMode): AcceptedIntake {
  if (rejectedForSafety(result))
    throw new SafetyRejectedError("the experiment was rejected for safety reasons", {
      safety_flags: result.safety_flags,
      findings: result.safety.map((finding) => ({ ...finding })),
    });
  const stored = mode === "submit" ? result.request : result.draft;
  if (!result.valid || !stored)
    throw new ValidationError(
      "the experiment request is invalid",
      result.errors.map((error) => ({ field: error.path, code: error.code, message: error.message })),
    );
  const request = stored as unknown as JsonObject;
  return {
    request,
    complete: result.request !== undefined,
    experimentType: typeof request.experiment_type === "string" ? request.experiment_type : null,
    title: typeof request.title === "string" ? request.title : null,
    warnings: result.warnings,
    reviewReasons: result.review_reasons,
    safetyFlags: result.safety_flags,
  };
}

/**
 * Validates `body` in `mode` and accepts it, or throws (see acceptValidation), taking the
 * webhook URL's registration into account (webhook-registration.ts): a refused URL is one
 * more field error (unless the validation already found one at that path), an unresolved
 * one a warning.
 */
export function acceptIntake(
  body: unknown,
  mode: ValidationMode,
  now: Date,
  webhook: WebhookRegistration = { kind: "none" },
): AcceptedIntake {
  const result = validateRequest(body, mode, now);
  if (
    webhook.kind === "refused" &&
    !rejectedForSafety(result) &&
    !result.errors.some((error) => error.path === WEBHOOK_URL_PATH)
  )
    throw new ValidationError("the experiment request is invalid", [
      ...result.errors.map((error) => ({ field: error.path, code: error.code, message: error.message })),
      webhook.error,
    ]);
  const accepted = acceptValidation(result, mode);
  return webhook.kind === "unresolved"
    ? { ...accepted, warnings: [...accepted.warnings, webhook.warning] }
    : accepted;
}
