/**
 * Text PostgreSQL refuses, and JSON nested deep enough to overflow the stack of whatever
 * walks it recursively (JSON.stringify, zod, canonicalJson), refused at the edge with a
 * ValidationError naming the field, before any parse work or query.
 *
 * PostgreSQL stores neither U+0000 in text nor \u0000 in jsonb, and refuses lone UTF-16
 * surrogates once they are encoded for the wire; a string that is not well-formed Unicode
 * is treated like one carrying NUL.
 */
import { type FieldError, ValidationError } from "./errors.js";

/** The deepest nesting of arrays and objects accepted in a JSON document. */
export const MAX_JSON_DEPTH = 64;

/** How many offending strings one error lists (a huge body must not make a huge answer). */
const MAX_REPORTED = 20;

export type UnsafeTextReason = "nul_character" | "ill_formed_unicode";

// String.prototype.isWellFormed is in Node 20 but not in the ES2023 lib this project builds with.
const isWellFormed = (text: string): boolean =>
  (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/** Why PostgreSQL would refuse this text, or undefined when it is fine. */
export function unsafeTextReason(text: string): UnsafeTextReason | undefined {
  if (text.includes("\u0000")) return "nul_character";
  if (!isWellFormed(text)) return "ill_formed_unicode";
  return undefined;
}

const REASON_MESSAGE: Record<UnsafeTextReason, string> = {
  nul_character: "must not contain the NUL character (U+0000)",
  ill_formed_unicode: "must be well-formed Unicode (no lone surrogate)",
};

/** The field error for one offending string (or object key) at `field`. */
export function unsafeTextFieldError(field: string, reason: UnsafeTextReason): FieldError {
  return { field, code: "invalid_value", message: REASON_MESSAGE[reason] };
}

/**
 * True when the nesting of arrays and objects in JSON text goes deeper than maxDepth. One
 * pass over the characters, skipping string contents; the text need not be valid JSON (the
 * parser still decides that), so this is safe to run before JSON.parse.
 */
export function jsonNestingExceeds(text: string, maxDepth: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c /* \ */) i += 1;
      else if (ch === 0x22 /* " */) inString = false;
      continue;
    }
    if (ch === 0x22) inString = true;
    else if (ch === 0x5b /* [ */ || ch === 0x7b /* { */) {
      depth += 1;
      if (depth > maxDepth) return true;
    } else if (ch === 0x5d /* ] */ || ch === 0x7d /* } */) depth -= 1;
  }
  return false;
}

/** The field error for JSON nested deeper than maxDepth at `field`. */
export function tooDeepFieldError(field: string, maxDepth: number = MAX_JSON_DEPTH): FieldError {
  return {
    field,
    code: "too_deep",
    message: `JSON must not nest arrays and objects more than ${maxDepth} levels deep`,
  };
}

function joinPath(prefix: string, key: string | number): string {
  return prefix === "" ? String(key) : `${prefix}.${key}`;
}

/**
 * Field errors for every string and object key in a parsed JSON value that PostgreSQL would
 * refuse (at most 20), each named by its dotted path under `field` ("" for the root). The
 * walk keeps its own stack, so it is safe at any depth.
 */
export function unsafeTextInJson(value: unknown, field = ""): FieldError[] {
  const errors: FieldError[] = [];
  const pending: Array<{ value: unknown; path: string }> = [{ value, path: field }];
  while (pending.length > 0 && errors.length < MAX_REPORTED) {
    const { value: current, path } = pending.pop()!;
    if (typeof current === "string") {
      const reason = unsafeTextReason(current);
      if (reason) errors.push(unsafeTextFieldError(path, reason));
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i -= 1)
        pending.push({ value: current[i], path: joinPath(path, i) });
    } else if (current !== null && typeof current === "object") {
      const entries = Object.entries(current as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        const [key, member] = entries[i]!;
        const reason = unsafeTextReason(key);
        // An offending key is named by its path with the key made printable.
        if (reason) errors.push(unsafeTextFieldError(joinPath(path, JSON.stringify(key)), reason));
        else pending.push({ value: member, path: joinPath(path, key) });
      }
    }
  }
  return errors.slice(0, MAX_REPORTED);
}

/** The text is not JSON at all (callers that say "must be a JSON object" tell it apart). */
export class JsonSyntaxError extends ValidationError {}

export interface ParseJsonOptions {
  maxDepth?: number;
  /** How messages name the text ("the submission"); `field` by default. */
  what?: string;
}

/**
 * JSON text carried in a field (a request's request_json, results_json, ...) parsed with the
 * edge's rules: nesting bounded before parsing, the text valid JSON, and no string or key in
 * it that PostgreSQL refuses. Any failure is a ValidationError naming `field` ("" when the
 * text is the whole request body; offending members are then named by their own path).
 */
export function parseSafeJson(field: string, text: string, options: ParseJsonOptions = {}): unknown {
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  const what = options.what ?? (field === "" ? "the JSON text" : field);
  if (jsonNestingExceeds(text, maxDepth))
    throw new ValidationError(`${what} is nested too deeply`, [tooDeepFieldError(field, maxDepth)]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new JsonSyntaxError(`${what} is not valid JSON`, [
      { field, code: "invalid_value", message: `${what} is not valid JSON` },
    ]);
  }
  const unsafe = unsafeTextInJson(parsed, field);
  if (unsafe.length > 0) throw new ValidationError(`${what} contains text that cannot be stored`, unsafe);
  return parsed;
}
