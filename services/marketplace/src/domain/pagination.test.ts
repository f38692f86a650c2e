import { ValidationError } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, parseLimit } from "./pagination.js";

function fieldOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error.fieldErrors[0]?.field;
    throw error;
  }
  return undefined;
}

describe("pagination", () => {
  it("limit: 0 is the default, 1..100 pass, anything else names the field", () => {
    expect(parseLimit(0)).toBe(20);
    expect(parseLimit(1)).toBe(1);
    expect(parseLimit(100)).toBe(100);
    for (const bad of [-1, 101, 2.5, Number.NaN]) expect(fieldOf(() => parseLimit(bad))).toBe("limit");
  });

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
