/**
 * Free text and JSON text fields of RPC requests: bounded before anything else looks at them,
 * and refused with a ValidationError (422) naming the field. Lengths are in characters (code
 * points), not UTF-16 units; JSON text is bounded in UTF-8 bytes before it is parsed.
 */
import { ValidationError } from "./errors.js";
import { JsonSyntaxError, parseSafeJson } from "./json-safety.js";

function length(text: string): number {
  return [...text].length;
}

function tooLong(field: string, max: number): ValidationError {
  return new ValidationError(`${field} is too long`, [
    { field, code: "invalid_value", message: `${field} must be at most ${max} characters` },
  ]);
}

function missing(field: string): ValidationError {
  return new ValidationError(`${field} is required`, [
    { field, code: "missing_required", message: `${field} is required` },
  ]);
}

/** A required free-text field: trimmed, 1..max characters. */
export function requiredText(field: string, value: string, max: number): string {
  const text = value.trim();
  if (text.length === 0) throw missing(field);
  if (length(text) > max) throw tooLong(field, max);
  return text;
}

/** An optional free-text field: trimmed, at most max characters ("" when absent). */
export function optionalText(field: string, value: string, max: number): string {
  const text = value.trim();
  if (length(text) > max) throw tooLong(field, max);
  return text;
}

/** JSON text of an object: at most maxBytes of UTF-8, parsed, an object (not an array). */
export function parseJsonObjectField(field: string, text: string, maxBytes: number): Record<string, unknown> {
  if (text.trim() === "") throw missing(field);
  if (Buffer.byteLength(text, "utf8") > maxBytes)
    throw new ValidationError(`${field} is too large`, [
      { field, code: "invalid_value", message: `${field} must be at most ${maxBytes} bytes` },
    ]);
  let parsed: unknown;
  try {
    parsed = parseSafeJson(field, text);
  } catch (error) {
    // Too deep, or text PostgreSQL refuses: say so; plain syntax errors read as "not an object".
    if (!(error instanceof JsonSyntaxError)) throw error;
    parsed = undefined;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new ValidationError(`${field} is not a JSON object`, [
      { field, code: "invalid_value", message: `${field} must be a JSON object` },
    ]);
  return parsed as Record<string, unknown>;
}
