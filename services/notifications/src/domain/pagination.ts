/**
 * Keyset pagination of the delivery log and the sent mail, newest first. The cursor is
 * opaque to clients: base64url of the JSON array [created_at (ISO 8601, ms), id] of the last
 * row of the previous page; ids break ties between equal times, so a page never repeats or
 * skips a row while rows are being added.
 */
import { type FieldError, ValidationError } from "@petri/service-kit";

export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;
/** A cursor longer than this is not one of ours (an id plus a timestamp is ~90 characters). */
const MAX_CURSOR_LENGTH = 512;

export interface Keyset {
  at: Date;
  id: string;
}

export function encodeCursor(keyset: Keyset): string {
  return Buffer.from(JSON.stringify([keyset.at.toISOString(), keyset.id]), "utf8").toString("base64url");
}

function invalidCursor(): ValidationError {
  return new ValidationError("the cursor is invalid", [
    { field: "cursor", code: "invalid_value", message: "cursor must be a value returned by a previous page" },
  ]);
}

/** The keyset of a cursor; a ValidationError (field "cursor") for anything we did not make. */
export function decodeCursor(cursor: string): Keyset {
  if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalidCursor();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw invalidCursor();
  const [at, id] = parsed as unknown[];
  if (typeof at !== "string" || typeof id !== "string" || id.length === 0 || id.length > 64)
    throw invalidCursor();
  const date = new Date(at);
  if (Number.isNaN(date.getTime()) || date.toISOString() !== at) throw invalidCursor();
  return { at: date, id };
}

/** limit 1..100; 0 (proto3's "unset") means 20. Anything else names the field, never a silent clamp. */
export function parseLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 0 || limit > MAX_PAGE_LIMIT) {
    const problem: FieldError = {
      field: "limit",
      code: "invalid_value",
      message: `limit must be 1 to ${MAX_PAGE_LIMIT}`,
    };
    throw new ValidationError("the page is invalid", [problem]);
  }
  return limit === 0 ? DEFAULT_PAGE_LIMIT : limit;
}
