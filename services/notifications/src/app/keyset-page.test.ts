import { decodeKeysetCursor } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { keysetPage } from "./keyset-page.js";

const rows = [3, 2, 1].map((n) => ({ id: `row_${n}`, at: new Date(Date.UTC(2026, 2, n)) }));

describe("keysetPage", () => {
  it("keeps `limit` rows and continues after the last of them when a further row was read", () => {
    const { page, hasMore, nextCursor } = keysetPage(rows, 2, (row) => row.at);
    expect(page.map((row) => row.id)).toEqual(["row_3", "row_2"]);
    expect(hasMore).toBe(true);
    expect(decodeKeysetCursor(nextCursor)).toEqual({ at: rows[1]!.at, id: "row_2" });
  });

  it("ends the listing (no cursor) when nothing lies beyond the page", () => {
    expect(keysetPage(rows, 3, (row) => row.at)).toEqual({ page: rows, hasMore: false, nextCursor: "" });
    expect(keysetPage([], 3, (row: (typeof rows)[number]) => row.at)).toEqual({
      page: [],
      hasMore: false,
      nextCursor: "",
    });
  });
});
