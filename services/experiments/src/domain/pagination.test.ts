import fc from "fast-check";
import { ValidationError } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, parseLimit } from "./pagination.js";

describe("experiment list cursors", () => {
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
          const cursor = encodeCursor({ at, id });
          expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
          expect(decodeCursor(cursor)).toEqual({ at, id });
        },
      ),
    );
  });

  it("keeps millisecond precision and ids apart", () => {
    const at = new Date("2026-03-02T10:00:00.123Z");
    expect(encodeCursor({ at, id: "exp_a" })).not.toBe(encodeCursor({ at, id: "exp_b" }));
    expect(decodeCursor(encodeCursor({ at, id: "exp_a" })).at.getTime()).toBe(at.getTime());
  });

  const bad = [
    "",
    "not a cursor!",
    Buffer.from("[1,2]").toString("base64url"),
    Buffer.from('["2026-03-02T10:00:00.000Z"]').toString("base64url"),
    Buffer.from('["yesterday","exp_x"]').toString("base64url"),
    Buffer.from('["2026-03-02T10:00:00Z","exp_x"]').toString("base64url"), // not our ISO form
    Buffer.from('["2026-03-02T10:00:00.000Z",""]').toString("base64url"),
    Buffer.from("{").toString("base64url"),
    "A".repeat(600),
  ];
  it.each(bad)("refuses %j as a validation error on the cursor field", (cursor) => {
    let caught: unknown;
    try {
      decodeCursor(cursor);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    expect((caught as ValidationError).fieldErrors).toEqual([
      expect.objectContaining({ field: "cursor", code: "invalid_value" }),
    ]);
  });

  it("limits pages to 1..100 with 20 by default, never clamping silently", () => {
    expect(parseLimit(0)).toBe(20);
    expect(parseLimit(1)).toBe(1);
    expect(parseLimit(100)).toBe(100);
    for (const limit of [-1, 101, 1e9, 2.5, Number.NaN]) {
      expect(() => parseLimit(limit)).toThrow(ValidationError);
    }
  });
});
