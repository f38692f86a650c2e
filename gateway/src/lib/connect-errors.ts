import { Code, ConnectError } from "@connectrpc/connect";
import { errorDetailOf } from "@petri/service-kit";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { type ErrorBody, errorBody } from "./problem.js";

// docs/architecture.md section 5: one table from Connect codes to HTTP, never flattened to 500.
const STATUS_BY_CODE: Partial<Record<Code, { status: ContentfulStatusCode; code: string }>> = {
  [Code.InvalidArgument]: { status: 422, code: "validation_failed" },
  [Code.Unauthenticated]: { status: 401, code: "unauthorized" },
  [Code.PermissionDenied]: { status: 403, code: "forbidden" },
  [Code.NotFound]: { status: 404, code: "not_found" },
  [Code.FailedPrecondition]: { status: 409, code: "invalid_state" },
  [Code.AlreadyExists]: { status: 409, code: "conflict" },
  [Code.Aborted]: { status: 409, code: "conflict" },
  [Code.ResourceExhausted]: { status: 429, code: "rate_limit_exceeded" },
  [Code.Unavailable]: { status: 503, code: "unavailable" },
  [Code.DeadlineExceeded]: { status: 504, code: "timeout" },
  [Code.Unimplemented]: { status: 501, code: "not_implemented" },
};

/**
 * Reasons whose HTTP status does not follow from the Connect code: a service that refuses a
 * body (or a file in it) as too large says so with the reason, whatever code it chose.
 */
const STATUS_BY_REASON: Record<string, ContentfulStatusCode> = {
  payload_too_large: 413,
};

const GENERIC_MESSAGES: Partial<Record<Code, string>> = {
  [Code.Unavailable]: "a service is unavailable; try again shortly",
  [Code.DeadlineExceeded]: "a service did not answer in time",
};

/** Maps an error from a service call to the public status and body. */
export function connectErrorToHttp(
  error: ConnectError,
  requestId: string,
): { status: ContentfulStatusCode; body: ErrorBody } {
  const detail = errorDetailOf(error);
  if (!detail && error.code === Code.ResourceExhausted) {
    // Every domain error carries an ErrorDetail (a service's rate limit says
    // rate_limit_exceeded); a bare ResourceExhausted is Connect refusing a message over a
    // service's readMaxBytes, i.e. the caller's payload.
    return {
      status: 413,
      body: errorBody("payload_too_large", "the request is larger than the service accepts"),
    };
  }
  const statusOfReason = detail?.reason ? STATUS_BY_REASON[detail.reason] : undefined;
  const mapped = statusOfReason
    ? { status: statusOfReason, code: detail!.reason }
    : STATUS_BY_CODE[error.code];
  if (!mapped) {
    return { status: 500, body: errorBody("internal_error", "internal error", { request_id: requestId }) };
  }
  const details: Record<string, unknown> = {};
  if (detail) {
    Object.assign(details, detail.metadata);
    if (detail.detailsJson) Object.assign(details, JSON.parse(detail.detailsJson) as Record<string, unknown>);
    if (detail.fieldViolations.length > 0) {
      details.errors = detail.fieldViolations.map((v) => ({
        field: v.field,
        code: v.code,
        message: v.message,
      }));
    }
  }
  const code = detail?.reason || mapped.code;
  const message = GENERIC_MESSAGES[error.code] ?? error.rawMessage;
  return { status: mapped.status, body: errorBody(code, message, details) };
}

/**
 * Retry-After (seconds, at least 1) of a service's 429: until details.reset (Unix epoch
 * seconds, as every rate_limit_exceeded body states it), or 1 when the service named none.
 */
export function retryAfterSeconds(body: ErrorBody, nowMs: number): number {
  const reset = body.error.details.reset;
  if (typeof reset !== "number" || !Number.isFinite(reset)) return 1;
  return Math.max(1, Math.ceil(reset - nowMs / 1000));
}

export function isConnectError(error: unknown): error is ConnectError {
  return error instanceof ConnectError;
}
