/** The error shape every service sends: a ConnectError carrying a petri.common.v1.ErrorDetail. */
import { create } from "@bufbuild/protobuf";
import { ConnectError, type Code } from "@connectrpc/connect";
import { ErrorDetailSchema, FieldViolationSchema, type ErrorDetail } from "@petri/contracts/common";

/** A ConnectError carrying a petri.common.v1.ErrorDetail, as every service error does. */
export function connectErrorWithDetail(
  message: string,
  code: Code,
  reason: string,
  details: Record<string, unknown> = {},
  fieldViolations: ReadonlyArray<{ field: string; code: string; message: string }> = [],
): ConnectError {
  const detail = create(ErrorDetailSchema, {
    reason,
    metadata: flatMetadata(details),
    fieldViolations: fieldViolations.map((v) =>
      create(FieldViolationSchema, { field: v.field, code: v.code, message: v.message }),
    ),
    detailsJson: Object.keys(details).length > 0 ? safeJson(details) : "",
  });
  return new ConnectError(message, code, undefined, [{ desc: ErrorDetailSchema, value: detail }]);
}

/** Reads the ErrorDetail back from a ConnectError (the gateway's side of the contract). */
export function errorDetailOf(err: ConnectError): ErrorDetail | undefined {
  return err.findDetails(ErrorDetailSchema)[0];
}

/** details_json parsed back into an object ({} when absent or unreadable). */
export function errorDetailsObject(detail: ErrorDetail | undefined): Record<string, unknown> {
  if (!detail?.detailsJson) return {};
  try {
    const parsed: unknown = JSON.parse(detail.detailsJson);
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function safeJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
}

/**
 * Flat string facts for ErrorDetail.metadata: strings, numbers and booleans as text, lists
 * of those joined with ","; nested objects only travel in details_json.
 */
function flatMetadata(details: Record<string, unknown>): Record<string, string> {
  const metadata: Record<string, string> = {};
  const scalar = (v: unknown): v is string | number | boolean | bigint =>
    typeof v === "string" || typeof v === "number" || typeof v === "boolean" || typeof v === "bigint";
  for (const [key, value] of Object.entries(details)) {
    if (scalar(value)) metadata[key] = String(value);
    else if (Array.isArray(value) && value.every(scalar)) metadata[key] = value.map(String).join(",");
  }
  return metadata;
}
