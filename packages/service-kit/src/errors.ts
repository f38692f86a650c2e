/**
 * Domain errors. Use cases throw these; the Connect error interceptor turns them into a
 * ConnectError carrying petri.common.v1.ErrorDetail, and the gateway turns that into the
 * public body {"error":{"code","message","details"}} (docs/architecture.md section 5).
 */
export interface FieldError {
  /** JSON path, e.g. "constraints.budget_max_usd". */
  field: string;
  /** Machine code, e.g. "missing_required", "invalid_value". */
  code: string;
  message: string;
}

export type DomainErrorKind =
  | "validation_failed"
  | "not_found"
  | "invalid_state"
  | "conflict"
  | "forbidden"
  | "safety_rejected"
  | "unauthorized"
  | "rate_limit_exceeded"
  | "unavailable";

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
  /** Public code; defaults to the kind. */
  get code(): string {
    return this.kind;
  }
  readonly details: Record<string, unknown>;
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = new.target.name;
    this.details = details;
  }
}

export class ValidationError extends DomainError {
  readonly kind = "validation_failed" as const;
  constructor(
    message: string,
    readonly fieldErrors: FieldError[] = [],
  ) {
    super(message, { errors: fieldErrors });
  }
}

export class NotFoundError extends DomainError {
  readonly kind = "not_found" as const;
  constructor(resource: string, id: string) {
    super(`${resource} ${id} was not found`, { resource, id });
  }
}

/** A wrong-state operation: 409 invalid_state with details.status and details.allowed_from. */
export class InvalidStateError extends DomainError {
  readonly kind = "invalid_state" as const;
  constructor(message: string, status: string, allowedFrom: readonly string[]) {
    super(message, { status, allowed_from: [...allowedFrom] });
  }
}

/** Duplicates and concurrent-update conflicts: 409 with a specific public code. */
export class ConflictError extends DomainError {
  readonly kind = "conflict" as const;
  constructor(
    message: string,
    private readonly publicCode = "conflict",
    details: Record<string, unknown> = {},
  ) {
    super(message, details);
  }
  override get code(): string {
    return this.publicCode;
  }
}

export class ForbiddenError extends DomainError {
  readonly kind = "forbidden" as const;
}

export class SafetyRejectedError extends DomainError {
  readonly kind = "safety_rejected" as const;
}

export class UnauthenticatedError extends DomainError {
  readonly kind = "unauthorized" as const;
}

export class RateLimitedError extends DomainError {
  readonly kind = "rate_limit_exceeded" as const;
}

export class UnavailableError extends DomainError {
  readonly kind = "unavailable" as const;
}
