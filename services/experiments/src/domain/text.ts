import { ValidationError } from "@petri/service-kit";

export const REASON_MAX_LENGTH = 1_000;
export const NOTE_MAX_LENGTH = 2_000;

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

/** An optional free-text field: trimmed, at most max characters ("" when absent). */
export function optionalText(field: string, value: string, max: number): string {
  const text = value.trim();
  if (length(text) > max)
    throw new ValidationError(`${field} is too long`, [
      { field, code: "invalid_value", message: `${field} must be at most ${max} characters` },
    ]);
  return text;
}
