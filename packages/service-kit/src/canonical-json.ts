import { ValidationError } from "./errors.js";

/**
 * Deeper than this is refused rather than recursed into: far above what the edge accepts
 * (MAX_JSON_DEPTH), far below what overflows the stack.
 */
export const CANONICAL_JSON_MAX_DEPTH = 512;

/**
 * JSON with object keys sorted at every depth (arrays keep their order, undefined members are
 * left out): two equal values give the same text, whatever their key order. Used to hash
 * requests for idempotency. A value nested deeper than CANONICAL_JSON_MAX_DEPTH is a
 * ValidationError, not a stack overflow.
 */
export function canonicalJson(value: unknown): string {
  return canonical(value, 0);
}

function canonical(value: unknown, depth: number): string {
  if (value === null || typeof value !== "object") {
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError("value is not representable as JSON");
    return text;
  }
  if (depth >= CANONICAL_JSON_MAX_DEPTH)
    throw new ValidationError(`the value is nested more than ${CANONICAL_JSON_MAX_DEPTH} levels deep`, [
      {
        field: "",
        code: "too_deep",
        message: `JSON must not nest arrays and objects more than ${CANONICAL_JSON_MAX_DEPTH} levels deep`,
      },
    ]);
  if (Array.isArray(value)) return `[${value.map((item) => canonical(item ?? null, depth + 1)).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v, depth + 1)}`).join(",")}}`;
}
