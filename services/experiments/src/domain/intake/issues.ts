/**
 * zod issues -> docs/api.md validation errors with readable messages.
 *
 * zod's own wording ("Invalid input: expected string, received undefined") never reaches a
 * client: every parse runs with `readableMessage` as its error map, which writes a predicate
 * ("must be a whole number"); `toRequestErrors` puts the field's name in front and splits an
 * unknown-keys issue into one error per unknown field. Messages set on a schema (`{ error }`) or
 * by a refinement win over the map and follow the same predicate style.
 */
import type { z } from "zod";

import type { RequestError } from "../contracts.js";
import { formatPath, type PathSegment } from "./paths.js";

type RawIssue = z.core.$ZodRawIssue;

const TYPE_NAMES: Record<string, string> = {
  string: "text (a JSON string)",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "an object",
  array: "a list (JSON array)",
  record: "an object of key/value pairs",
};

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function describeValue(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

/** Per-parse error map: a predicate for every zod issue code. */
export function readableMessage(issue: RawIssue): string {
  switch (issue.code) {
    case "invalid_type": {
      const expected = String(issue.expected);
      return `must be ${TYPE_NAMES[expected] ?? expected}`;
    }
    case "too_small": {
      const min = Number(issue.minimum);
      if (issue.origin === "string")
        return min <= 1 ? "must not be empty" : `must be at least ${plural(min, "character")}`;
      if (issue.origin === "array" || issue.origin === "set")
        return `must contain at least ${plural(min, "item")}`;
      return issue.inclusive === false ? `must be greater than ${min}` : `must be at least ${min}`;
    }
    case "too_big": {
      const max = Number(issue.maximum);
      if (issue.origin === "string") return `must be at most ${plural(max, "character")}`;
      if (issue.origin === "array" || issue.origin === "set")
        return `must contain at most ${plural(max, "item")}`;
      return issue.inclusive === false ? `must be less than ${max}` : `must be at most ${max}`;
    }
    case "invalid_value":
      return `must be one of: ${issue.values.map(describeValue).join(", ")}`;
    case "invalid_format":
      return issue.format === "date"
        ? "must be a date in YYYY-MM-DD form"
        : `must be a valid ${issue.format}`;
    case "not_multiple_of":
      return `must be a multiple of ${String(issue.divisor)}`;
    case "unrecognized_keys":
      return `contains unknown fields: ${issue.keys.join(", ")}`;
    case "invalid_union":
      return "does not match any accepted form";
    case "invalid_key":
      return "has an invalid key";
    case "invalid_element":
      return "has an invalid entry";
    default:
      return "has an invalid value";
  }
}

/** A readable message about the field at `path`: "<full path> <predicate>" (field names keep their case). */
export function fieldMessage(path: readonly PathSegment[], predicate: string): string {
  return `${path.length === 0 ? "the request" : formatPath(path)} ${predicate}`;
}

/** Converts a parse failure into docs/api.md errors (all `invalid_value`), paths prefixed by `prefix`. */
export function toRequestErrors(error: z.ZodError, prefix: readonly PathSegment[]): RequestError[] {
  const out: RequestError[] = [];
  for (const issue of error.issues) {
    const path = [...prefix, ...(issue.path as PathSegment[])];
    if (issue.code === "unrecognized_keys") {
      const where = path.length === 0 ? "the request" : formatPath(path);
      for (const key of issue.keys) {
        const keyPath = [...path, key];
        out.push({
          path: formatPath(keyPath),
          code: "invalid_value",
          message: `Unknown field ${JSON.stringify(key)} in ${where}: it is not part of the request model`,
        });
      }
      continue;
    }
    out.push({ path: formatPath(path), code: "invalid_value", message: fieldMessage(path, issue.message) });
  }
  return out;
}
