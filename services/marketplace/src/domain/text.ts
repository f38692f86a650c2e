/** Limits of the marketplace's free-text and JSON text fields (the checks are service-kit's). */
import { parseJsonObjectField } from "@petri/service-kit";

export { requiredText } from "@petri/service-kit";

export const REASON_MAX_LENGTH = 1_000;
/** A profile or verification record is a few kilobytes; this leaves room for long lists. */
export const JSON_TEXT_MAX_BYTES = 128 * 1024;

/** JSON text of an object, at most JSON_TEXT_MAX_BYTES, else a ValidationError naming the field. */
export function parseJsonObject(field: string, text: string): Record<string, unknown> {
  return parseJsonObjectField(field, text, JSON_TEXT_MAX_BYTES);
}
