/**
 * Page sizes and opaque cursors. A cursor is base64url of a JSON array of the sort key of the
 * last item of the previous page (a keyset), so a page never repeats or skips an item when
 * items are added meanwhile. Clients must treat it as opaque; anything we did not make is a
 * 422 naming the field.
 */
import { type FieldError, ValidationError } from "@petri/service-kit";

export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;
/** A cursor longer than this is not one of ours (a few ids, numbers and timestamps). */
const MAX_CURSOR_LENGTH = 512;

/** limit 1..max; 0 (proto3's "unset") means the default. Anything else names the field, never a silent clamp. */
export function parseLimit(limit: number, max = MAX_PAGE_LIMIT, fallback = DEFAULT_PAGE_LIMIT): number {
  if (!Number.isInteger(limit) || limit < 0 || limit > max) {
    const problem: FieldError = {
      field: "limit",
      code: "invalid_value",
      message: `limit must be 1 to ${max}`,
    };
    throw new ValidationError("the page is invalid", [problem]);
  }
  return limit === 0 ? fallback : limit;
}

/** The parts of a sort key: text (ids), finite numbers (scores) and instants. */
export type CursorPart = string | number | Date;
export type CursorShape = readonly ("string" | "number" | "date")[];

export function encodeCursor(parts: readonly CursorPart[]): string {
  const json = parts.map((part) => (part instanceof Date ? part.toISOString() : part));
  return Buffer.from(JSON.stringify(json), "utf8").toString("base64url");
}

function invalidCursor(): ValidationError {
  return new ValidationError("the cursor is invalid", [
    { field: "cursor", code: "invalid_value", message: "cursor must be a value returned by a previous page" },
  ]);
}

/** The sort key of a cursor, checked against its shape; a ValidationError (field "cursor") otherwise. */
export function decodeCursor(cursor: string, shape: CursorShape): CursorPart[] {
  if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalidCursor();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== shape.length) throw invalidCursor();
  return shape.map((kind, index) => {
    const value: unknown = parsed[index];
    if (kind === "number") {
      if (typeof value !== "number" || !Number.isFinite(value)) throw invalidCursor();
      return value;
    }
    if (typeof value !== "string" || value.length === 0 || value.length > 64) throw invalidCursor();
    if (kind === "string") return value;
    const date = new Date(value);
    if (Number.isNaN(date.getTime()) || date.toISOString() !== value) throw invalidCursor();
    return date;
  });
}
