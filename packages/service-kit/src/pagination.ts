/**
 * Page sizes, offset pages and opaque keyset cursors.
 *
 * A cursor is base64url of a JSON array of the sort key of the last item of the previous
 * page (a keyset), so a page never repeats or skips an item when items are added meanwhile
 * (ids break ties between equal sort values). Clients must treat it as opaque; anything we
 * did not make is a ValidationError naming the field "cursor". The common keyset is
 * [timestamp (ISO 8601, ms), id]: encodeKeysetCursor / decodeKeysetCursor.
 *
 * Limits are 1..max with 0 (proto3's "unset") meaning the default; anything else names the
 * field, never a silent clamp.
 */
import { type FieldError, ValidationError } from "./errors.js";

export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;
/** A cursor longer than this is not one of ours (a few ids, numbers and timestamps). */
const MAX_CURSOR_LENGTH = 512;
/** Longest text (id or timestamp) a cursor part may hold. */
const MAX_CURSOR_TEXT_LENGTH = 64;

function limitProblem(max: number): FieldError {
  return { field: "limit", code: "invalid_value", message: `limit must be 1 to ${max}` };
}

function isLimit(limit: number, max: number): boolean {
  return Number.isInteger(limit) && limit >= 0 && limit <= max;
}

/** limit 1..max; 0 (proto3's "unset") means the fallback. Anything else names the field, never a silent clamp. */
export function parseLimit(limit: number, max = MAX_PAGE_LIMIT, fallback = DEFAULT_PAGE_LIMIT): number {
  if (!isLimit(limit, max)) throw new ValidationError("the page is invalid", [limitProblem(max)]);
  return limit === 0 ? fallback : limit;
}

/** An offset page. */
export interface Page {
  limit: number;
  offset: number;
}

/**
 * limit 1..100 (0 = unset = 20, as proto3 sends an absent int32), offset >= 0. Anything
 * else is a validation error naming the field(s), never a silent clamp.
 */
export function parsePage(input: { limit: number; offset: number }): Page {
  const problems: FieldError[] = [];
  if (!isLimit(input.limit, MAX_PAGE_LIMIT)) problems.push(limitProblem(MAX_PAGE_LIMIT));
  if (!Number.isInteger(input.offset) || input.offset < 0)
    problems.push({ field: "offset", code: "invalid_value", message: "offset must be 0 or more" });
  if (problems.length > 0) throw new ValidationError("the page is invalid", problems);
  return { limit: input.limit === 0 ? DEFAULT_PAGE_LIMIT : input.limit, offset: input.offset };
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
    if (typeof value !== "string" || value.length === 0 || value.length > MAX_CURSOR_TEXT_LENGTH)
      throw invalidCursor();
    if (kind === "string") return value;
    const date = new Date(value);
    if (Number.isNaN(date.getTime()) || date.toISOString() !== value) throw invalidCursor();
    return date;
  });
}

/** The most common sort key: a timestamp, ties broken by id. */
export interface Keyset {
  at: Date;
  id: string;
}

const KEYSET_SHAPE = ["date", "string"] as const satisfies CursorShape;

/** base64url of the JSON array [at (ISO 8601, ms), id]. */
export function encodeKeysetCursor(keyset: Keyset): string {
  return encodeCursor([keyset.at, keyset.id]);
}

/** The keyset of a cursor; a ValidationError (field "cursor") for anything we did not make. */
export function decodeKeysetCursor(cursor: string): Keyset {
  const [at, id] = decodeCursor(cursor, KEYSET_SHAPE);
  return { at: at as Date, id: id as string };
}

/**
 * The total of a page's list, counted only when it is asked for (`count` given): counting
 * every match costs as much as the list itself, and most clients page by has_more. A first
 * page with nothing after it holds the whole list, so its size is the total for free.
 * undefined when not asked and not known.
 */
export async function pageTotal(
  page: { first: boolean; hasMore: boolean; size: number },
  count: (() => Promise<number>) | undefined,
): Promise<number | undefined> {
  if (page.first && !page.hasMore) return page.size;
  return count ? count() : undefined;
}
