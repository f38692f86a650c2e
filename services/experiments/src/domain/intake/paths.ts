/**
 * JSON paths into the request as sent.
 *
 * Format (decision): dot-separated keys with bracketed array indices, e.g.
 * `custom_protocol.steps[2].expected_outcome`. A key that is not a plain identifier is written
 * in JSON-quoted brackets (`template_parameters["plate map"]`). The whole body is the empty path "".
 */

export type PathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function formatPath(segments: readonly PathSegment[]): string {
  let out = "";
  for (const segment of segments) {
    if (typeof segment === "number") {
      out += `[${segment}]`;
    } else if (IDENTIFIER.test(segment)) {
      out += out === "" ? segment : `.${segment}`;
    } else {
      out += `[${JSON.stringify(segment)}]`;
    }
  }
  return out;
}

/** Appends segments to an already formatted path. */
export function joinPath(base: string, ...segments: readonly PathSegment[]): string {
  const tail = formatPath(segments);
  if (base === "") return tail;
  if (tail === "") return base;
  return tail.startsWith("[") ? `${base}${tail}` : `${base}.${tail}`;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Own enumerable property lookup that never walks the prototype chain. */
export function ownValue(record: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}
