import { z } from "@hono/zod-openapi";

/** The one error body of the public API: {"error":{"code","message","details"}}. */
export const ErrorBodySchema = z
  .object({
    error: z.object({
      code: z.string().openapi({
        description:
          "Machine-readable code: unauthorized, forbidden, not_found, method_not_allowed, validation_failed, conflicting_credentials, payload_too_large, unsupported_media_type, rate_limit_exceeded, invalid_state, conflict, internal_error, unavailable, or a more specific code named by the operation.",
        example: "validation_failed",
      }),
      message: z.string().openapi({ description: "For humans; do not parse it." }),
      details: z.record(z.string(), z.unknown()).openapi({
        description:
          "Facts about the error, e.g. errors (per-field list) for validation_failed, limit and reset for rate_limit_exceeded, request_id for internal_error.",
      }),
    }),
  })
  .openapi("Error");

export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export function errorBody(code: string, message: string, details: Record<string, unknown> = {}): ErrorBody {
  return { error: { code, message, details } };
}

/**
 * The Retry-After (seconds) of every 503: a service restarting, failing over or out of
 * connections is back within seconds, and a client that honours it (D323) retries soon
 * rather than giving up or hammering.
 */
export const RETRY_AFTER_UNAVAILABLE_SECONDS = 1;

/**
 * Thrown by a handler to answer with the public error shape (onError renders it), so a
 * handler's typed return stays its success response.
 */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 422 | 429 | 503,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** Thrown by a handler to answer with a response built elsewhere (e.g. the guard's 401/429). */
export class RespondWith extends Error {
  constructor(readonly response: Response) {
    super(`respond with ${response.status}`);
    this.name = "RespondWith";
  }
}
