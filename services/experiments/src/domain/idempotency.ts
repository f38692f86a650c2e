/**
 * Idempotency keys of POST /experiments (Stripe semantics; docs/api.md#idempotency).
 * The key is scoped per account; the request is identified by a SHA-256 over the canonical
 * JSON of the body and the save_as_draft flag, so key order and number spelling (1 vs 1.0)
 * do not make two equal requests differ.
 */
import { createHash } from "node:crypto";
import { DomainError, type FieldError, canonicalJson } from "@petri/service-kit";

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

/**
 * "sha256:<hex>" of the canonical request: the body as parsed, the draft flag and the source
 * hypothesis (left out when none, so hashes stored before it existed still match).
 */
export function requestHash(body: unknown, saveAsDraft: boolean, sourceHypothesisId?: string): string {
  const digest = createHash("sha256")
    .update(canonicalJson({ body, save_as_draft: saveAsDraft, source_hypothesis_id: sourceHypothesisId }))
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
