/** The page of a newest-first keyset listing and the cursor that continues it. */
import { encodeKeysetCursor } from "@petri/service-kit";

export interface KeysetPage<Row> {
  page: Row[];
  hasMore: boolean;
  /** Empty on the last page. */
  nextCursor: string;
}

/**
 * Cuts `rows`, read one past `limit` so that a further row tells there is more, to the page,
 * and keys the next cursor on its last row (`at` its timestamp).
 */
export function keysetPage<Row extends { id: string }>(
  rows: Row[],
  limit: number,
  at: (row: Row) => Date,
): KeysetPage<Row> {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const hasMore = rows.length > limit;
  return {
    page,
    hasMore,
    nextCursor: hasMore && last ? encodeKeysetCursor({ at: at(last), id: last.id }) : "",
  };
}
