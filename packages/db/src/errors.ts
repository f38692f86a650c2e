/** SQLSTATE of a database error from either engine (pg and PGlite both expose `code`). */
export function sqlState(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** The constraint a database error names, when the engine reports one. */
export function violatedConstraint(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const constraint = (error as { constraint?: unknown }).constraint;
  return typeof constraint === "string" ? constraint : undefined;
}

/** unique_violation (23505), optionally of one named constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  return (
    sqlState(error) === "23505" && (constraint === undefined || violatedConstraint(error) === constraint)
  );
}

/** serialization_failure (40001) or deadlock_detected (40P01): retry the transaction. */
export function isRetryableTransactionError(error: unknown): boolean {
  const state = sqlState(error);
  return state === "40001" || state === "40P01";
}

/**
 * `error` without the statement's bound values that PGlite attaches to it (`params`, and
 * `queryOptions` which may repeat them). The same object, so its class, stack and SQLSTATE stay.
 */
export function withoutBoundValues<E>(error: E): E {
  if (typeof error === "object" && error !== null) {
    for (const field of ["params", "queryOptions"]) {
      if (Object.prototype.hasOwnProperty.call(error, field))
        delete (error as Record<string, unknown>)[field];
    }
  }
  return error;
}
