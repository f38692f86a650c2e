/**
 * Idempotency keys of POST /experiments (Stripe semantics; reliability-test-plan.md section 2).
 * The key is scoped per account; the request is identified by a SHA-256 over the canonical
 * JSON of the body and the save_as_draft flag, so key order and number spelling (1 vs 1.0)
 * do not make two equal requests differ.
 */
import { createHash } from "node:crypto";
import { DomainError, type FieldError } from "@petri/service-kit";

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** Keys are kept (and replayed) for 24 hours after the request completed. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/** A problem with the key's shape: 1..255 printable ASCII characters. */
export function idempotencyKeyProblem(key: string): FieldError | undefined {
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH || !PRINTABLE_ASCII.test(key))
    return {
      field: "idempotency_key",
      code: "invalid_value",
      message: `the Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters`,
    };
  return undefined;
}

/** JSON with object keys sorted at every depth; arrays keep their order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError("value is not representable as JSON");
    return text;
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

/** "sha256:<hex>" of the canonical request: the body as parsed and the draft flag. */
export function requestHash(body: unknown, saveAsDraft: boolean): string {
  const digest = createHash("sha256")
    .update(canonicalJson({ body, save_as_draft: saveAsDraft }))
    .digest("hex");
  return `sha256:${digest}`;
}

/** The cut-off: keys completed before it are expired (a reuse runs a new request). */
export function idempotencyCutoff(now: Date): Date {
  return new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS);
}

/**
 * The key was used for a different request: 422 with the public code idempotency_key_reused
 * (InvalidArgument on the wire; the IETF draft's answer to a reused key).
 */
export class IdempotencyKeyReusedError extends DomainError {
  readonly kind = "validation_failed" as const;
  constructor() {
    super("this Idempotency-Key was already used with a different request", { field: "idempotency_key" });
  }
  override get code(): string {
    return "idempotency_key_reused";
  }
}
