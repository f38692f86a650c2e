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

/** A field of an object as sent; undefined when the value is not an object. */
export function child(value: unknown, key: string): unknown {
  return isPlainObject(value) ? ownValue(value, key) : undefined;
}

/**
 * Drops object properties whose value is null, `maxDepth` levels down (deeper values are kept as
 * they are); arrays keep their items. Null counts as absent in request bodies (D19).
 */
export function withoutNullProperties(value: unknown, maxDepth: number, depth = 0): unknown {
  if (depth > maxDepth) return value;
  if (Array.isArray(value)) return value.map((item) => withoutNullProperties(item, maxDepth, depth + 1));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === null) continue;
    // defineProperty, not assignment: a "__proto__" key stays an own property.
    Object.defineProperty(out, key, {
      value: withoutNullProperties(item, maxDepth, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
