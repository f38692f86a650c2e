/** Cursor paging as every list of the API does it: ?limit (1-100, 20) & cursor -> pagination. */
import { z } from "@hono/zod-openapi";
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from "./catalog.js";
import { queryFlag, queryInt } from "./query.js";

/** ?limit and ?cursor of a cursor-paged list. */
export const cursorPageQuery = {
  limit: queryInt(1, PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT),
  cursor: z
    .string()
    .min(1)
    .max(512)
    .optional()
    .openapi({ description: "pagination.cursor of the previous page (opaque)" }),
};

/**
 * ?include_total of a list whose total costs a count of every match: asked for, not by
 * default (most clients page by has_more).
 */
export const includeTotalQuery = {
  include_total: queryFlag(
    false,
    "true counts every match into pagination.total; otherwise total is null unless this first page holds every match",
  ),
};

/** A service page (total, next_cursor, has_more) -> {total, cursor, has_more}. */
export function paginationJson(page: { total: bigint; nextCursor: string; hasMore: boolean }) {
  return { total: Number(page.total), cursor: page.nextCursor || null, has_more: page.hasMore };
}

/** A page of a list with includeTotalQuery -> {total, cursor, has_more}; total null when not counted. */
export function optionalTotalPaginationJson(page: {
  total: bigint;
  hasTotal: boolean;
  nextCursor: string;
  hasMore: boolean;
}) {
  return { ...paginationJson(page), total: page.hasTotal ? Number(page.total) : null };
}
