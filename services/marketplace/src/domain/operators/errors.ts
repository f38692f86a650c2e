/**
 * Turning zod issues into {path, code, message} field errors.
 *
 * Path format: dot-separated keys with bracketed array indices
 * (`capabilities.instruments[2].name`), the same as the experiments intake paths.
 * An absent (or null) required field is `missing_required`; everything else, unknown fields of
 * strict objects included (one error per unknown key, at that key's path), is `invalid_value`.
 */
import type { z } from "zod";

import type { FieldError } from "./types.js";

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function formatPath(segments: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of segments) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (typeof segment === "string" && IDENTIFIER.test(segment))
      out += out === "" ? segment : `.${segment}`;
    else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out;
}

const TYPE_NAMES: Record<string, string> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "an object",
  array: "a list",
  record: "an object of key/value pairs",
};

/** Per-parse error map: readable predicates instead of zod's wording. */
export function readableMessage(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return `must be ${TYPE_NAMES[String(issue.expected)] ?? String(issue.expected)}`;
    case "too_small": {
      const min = Number(issue.minimum);
      if (issue.origin === "string") return "must not be empty";
      if (issue.origin === "array") return `must contain at least ${min} item(s)`;
      return issue.inclusive === false ? `must be greater than ${min}` : `must be at least ${min}`;
    }
    case "too_big": {
      const max = Number(issue.maximum);
      if (issue.origin === "string") return `must be at most ${max} characters`;
      if (issue.origin === "array") return `must contain at most ${max} items`;
      return issue.inclusive === false ? `must be less than ${max}` : `must be at most ${max}`;
    }
    case "invalid_value":
      return `must be one of: ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "invalid_format":
      return issue.format === "date"
        ? "must be a date in YYYY-MM-DD form"
        : `must be a valid ${issue.format}`;
    case "invalid_key":
      return "has an invalid key";
    default:
      return "has an invalid value";
  }
}

/** Parses with readable messages; input is reported so an absent field can be told apart. */
export function parseWith<T>(
  schema: z.ZodType<T>,
  input: unknown,
): { ok: true; value: T } | { ok: false; errors: FieldError[] } {
  const result = schema.safeParse(dropNulls(input), { error: readableMessage, reportInput: true });
  return result.success ? { ok: true, value: result.data } : { ok: false, errors: fieldErrors(result.error) };
}

export function fieldErrors(error: z.ZodError): FieldError[] {
  const out: FieldError[] = [];
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        out.push({
          path: formatPath([...issue.path, key]),
          code: "invalid_value",
          message: "is not a known field",
        });
      }
      continue;
    }
    const path = formatPath(issue.path);
    const missing = issue.code === "invalid_type" && issue.input === undefined;
    out.push({
      path,
      code: missing ? "missing_required" : "invalid_value",
      message: `${path === "" ? "body" : path} ${missing ? "is required" : issue.message}`,
    });
  }
  return out;
}

/** Null properties count as absent (D19): drop them before parsing, recursively. */
export function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = dropNulls(v);
    return out;
  }
  return value;
}
