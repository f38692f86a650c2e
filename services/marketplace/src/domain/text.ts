/**
 * Free text and JSON text from requests: bounded before anything else looks at them, and
 * refused with a 422 naming the field.
 */
import { ValidationError } from "@petri/service-kit";

export const REASON_MAX_LENGTH = 1_000;
/** A profile or verification record is a few kilobytes; this leaves room for long lists. */
export const JSON_TEXT_MAX_BYTES = 128 * 1024;

/** Length in characters (code points), not UTF-16 units. */
function length(text: string): number {
  return [...text].length;
}

/** A required free-text field: trimmed, 1..max characters, else a ValidationError naming it. */
export function requiredText(field: string, value: string, max: number): string {
  const text = value.trim();
  if (text.length === 0)
    throw new ValidationError(`${field} is required`, [
      { field, code: "missing_required", message: `${field} is required` },
    ]);
  if (length(text) > max)
    throw new ValidationError(`${field} is too long`, [
      { field, code: "invalid_value", message: `${field} must be at most ${max} characters` },
    ]);
  return text;
}

/** JSON text of an object: bounded, parsed, else a ValidationError naming the field. */
export function parseJsonObject(field: string, text: string): Record<string, unknown> {
  if (text.trim() === "")
    throw new ValidationError(`${field} is required`, [
      { field, code: "missing_required", message: `${field} is required` },
    ]);
  if (Buffer.byteLength(text, "utf8") > JSON_TEXT_MAX_BYTES)
    throw new ValidationError(`${field} is too large`, [
      { field, code: "invalid_value", message: `${field} must be at most ${JSON_TEXT_MAX_BYTES} bytes` },
    ]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ValidationError(`${field} is not JSON`, [
      { field, code: "invalid_value", message: `${field} must be a JSON object` },
    ]);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new ValidationError(`${field} is not a JSON object`, [
      { field, code: "invalid_value", message: `${field} must be a JSON object` },
    ]);
  return parsed as Record<string, unknown>;
}
