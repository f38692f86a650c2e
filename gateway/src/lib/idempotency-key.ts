import { ApiError } from "./problem.js";

/** Idempotency-Key: 1 to 255 printable ASCII characters (Stripe's bound). */
export const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,255}$/;

/** The OpenAPI header parameter; `description` says what the key makes safe to retry. */
export function idempotencyKeyParameter(description: string) {
  return {
    name: "Idempotency-Key",
    in: "header" as const,
    required: false,
    schema: { type: "string" as const, minLength: 1, maxLength: 255, pattern: "^[\\x20-\\x7e]+$" },
    description,
  };
}

/** The Idempotency-Key header ("" when absent); 422 when it is not 1..255 printable ASCII. */
export function idempotencyKey(header: string | undefined): string {
  if (header === undefined) return "";
  if (IDEMPOTENCY_KEY.test(header)) return header;
  const message = "Idempotency-Key must be 1 to 255 printable ASCII characters";
  throw new ApiError(422, "validation_failed", "the request is invalid", {
    errors: [{ field: "Idempotency-Key", path: "Idempotency-Key", code: "invalid_value", message }],
  });
}
