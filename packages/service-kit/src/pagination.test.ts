import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ValidationError } from "./errors.js";
import {
  DEFAULT_PAGE_LIMIT,
  MAX_PAGE_LIMIT,
  decodeCursor,
  decodeKeysetCursor,
  encodeCursor,
  encodeKeysetCursor,
  pageTotal,
  parseLimit,
  parsePage,
} from "./pagination.js";

function fieldOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error.fieldErrors[0]?.field;
    throw error;
  }
  return undefined;
}

describe("parseLimit", () => {
  it("limits pages to 1..100 with 20 by default, never clamping silently", () => {
    expect(DEFAULT_PAGE_LIMIT).toBe(20);
    expect(MAX_PAGE_LIMIT).toBe(100);
    expect(parseLimit(0)).toBe(20);
    expect(parseLimit(1)).toBe(1);
    expect(parseLimit(100)).toBe(100);
    for (const limit of [-1, 101, 1e9, 2.5, Number.NaN]) {
      expect(() => parseLimit(limit)).toThrow(ValidationError);
      expect(fieldOf(() => parseLimit(limit))).toBe("limit");
    }
  });

  it("takes another maximum and default, and names the maximum in the message", () => {
    expect(parseLimit(0, 50, 10)).toBe(10);
    expect(parseLimit(50, 50, 10)).toBe(50);
    let caught: unknown;
    try {
      parseLimit(51, 50, 10);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    expect((caught as ValidationError).fieldErrors).toEqual([
      { field: "limit", code: "invalid_value", message: "limit must be 1 to 50" },
    ]);
  });
});

describe("parsePage", () => {
  it("defaults an unset limit to 20 and accepts 1..100 with offset >= 0", () => {
    expect(parsePage({ limit: 0, offset: 0 })).toEqual({ limit: 20, offset: 0 });
    expect(parsePage({ limit: 1, offset: 5 })).toEqual({ limit: 1, offset: 5 });
    expect(parsePage({ limit: 100, offset: 0 })).toEqual({ limit: 100, offset: 0 });
  });

  it("rejects out-of-range values with field errors instead of clamping", () => {
    const fields = (limit: number, offset: number) => {
      try {
        parsePage({ limit, offset });
        return [];
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
        return (error as ValidationError).fieldErrors.map((e) => e.field);
      }
    };
    expect(fields(101, 0)).toEqual(["limit"]);
    expect(fields(-1, 0)).toEqual(["limit"]);
    expect(fields(10, -1)).toEqual(["offset"]);
    expect(fields(500, -3)).toEqual(["limit", "offset"]);
  });
});

describe("generic cursors", () => {
  it("cursors round-trip their sort key", () => {
    const at = new Date("2026-11-21T12:00:00.123Z");
    const cursor = encodeCursor([87.5, at, "exp_1"]);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, ["number", "date", "string"])).toEqual([87.5, at, "exp_1"]);
  });

  it("refuses cursors we did not make", () => {
    const shape = ["date", "string"] as const;
    const bad = [
      "",
      "not base64!",
      Buffer.from("{}").toString("base64url"),
      encodeCursor(["2026-11-21", "exp_1"]),
      encodeCursor([new Date(), ""]),
      encodeCursor([new Date(), "exp_1", "extra"]),
      encodeCursor([1, "exp_1"]),
      "a".repeat(600),
    ];
    for (const cursor of bad) expect(fieldOf(() => decodeCursor(cursor, shape))).toBe("cursor");
  });
});

describe("keyset cursors", () => {
  it("round-trips any keyset and is opaque base64url", () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date("2000-01-01T00:00:00Z"),
          max: new Date("2200-01-01T00:00:00Z"),
          noInvalidDate: true,
        }),
        fc.stringMatching(/^exp_[0-9a-z]{26}$/),
        (at, id) => {
          const cursor = encodeKeysetCursor({ at, id });
          expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
          expect(decodeKeysetCursor(cursor)).toEqual({ at, id });
        },
      ),
    );
  });

  it("round-trips a keyset through an opaque cursor", () => {
    const keyset = { at: new Date("2026-03-02T10:00:00.123Z"), id: "msg_01" };
    expect(decodeKeysetCursor(encodeKeysetCursor(keyset))).toEqual(keyset);
  });

  it("keeps millisecond precision and ids apart", () => {
    const at = new Date("2026-03-02T10:00:00.123Z");
    expect(encodeKeysetCursor({ at, id: "exp_a" })).not.toBe(encodeKeysetCursor({ at, id: "exp_b" }));
    expect(decodeKeysetCursor(encodeKeysetCursor({ at, id: "exp_a" })).at.getTime()).toBe(at.getTime());
  });

  it("writes and reads the same text as the services' earlier keyset cursors (clients keep theirs)", () => {
    // Made by the experiments and notifications services before this module existed.
    const at = new Date("2026-03-02T10:00:00.123Z");
    const experiments = "WyIyMDI2LTAzLTAyVDEwOjAwOjAwLjEyM1oiLCJleHBfMDFqcTAwMDAwMDAwMDAwMDAwMDAwMDAwMDAiXQ";
    const notifications = "WyIyMDI2LTAzLTAyVDEwOjAwOjAwLjEyM1oiLCJtc2dfMDEiXQ";
    expect(encodeKeysetCursor({ at, id: "exp_01jq0000000000000000000000" })).toBe(experiments);
    expect(encodeKeysetCursor({ at, id: "msg_01" })).toBe(notifications);
    expect(decodeKeysetCursor(experiments)).toEqual({ at, id: "exp_01jq0000000000000000000000" });
    expect(decodeKeysetCursor(notifications)).toEqual({ at, id: "msg_01" });
    // ... and it is the generic cursor of [at, id].
    expect(encodeCursor([at, "msg_01"])).toBe(notifications);
  });

  const bad = [
    "",
    "!!",
    "not a cursor!",
    Buffer.from("[1,2]").toString("base64url"),
    Buffer.from('["2026-03-02T10:00:00.000Z"]').toString("base64url"),
    Buffer.from('["yesterday","exp_x"]').toString("base64url"),
    Buffer.from('["2026-03-02T10:00:00Z","exp_x"]').toString("base64url"), // not our ISO form
    Buffer.from('["2026-03-02T10:00:00.000Z",""]').toString("base64url"),
    Buffer.from("{").toString("base64url"),
    "A".repeat(600),
    "a".repeat(600),
  ];
  it.each(bad)("refuses %j as a validation error on the cursor field", (cursor) => {
    let caught: unknown;
    try {
      decodeKeysetCursor(cursor);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    expect((caught as ValidationError).fieldErrors).toEqual([
      {
        field: "cursor",
        code: "invalid_value",
        message: "cursor must be a value returned by a previous page",
      },
    ]);
  });
});

describe("pageTotal", () => {
  const count = async () => 42;
  it("knows the total of a first page that holds every match without counting", async () => {
    let counted = false;
    const total = await pageTotal({ first: true, hasMore: false, size: 3 }, async () => {
      counted = true;
      return 3;
    });
    expect(total).toBe(3);
    expect(counted).toBe(false);
  });
  it("counts only when asked", async () => {
    expect(await pageTotal({ first: true, hasMore: true, size: 20 }, count)).toBe(42);
    expect(await pageTotal({ first: false, hasMore: false, size: 2 }, count)).toBe(42);
    expect(await pageTotal({ first: true, hasMore: true, size: 20 }, undefined)).toBeUndefined();
    expect(await pageTotal({ first: false, hasMore: false, size: 2 }, undefined)).toBeUndefined();
  });
});
