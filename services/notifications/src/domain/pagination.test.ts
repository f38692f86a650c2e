import { ValidationError } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, parseLimit } from "./pagination.js";

describe("pagination", () => {
  it("round-trips a keyset through an opaque cursor", () => {
    const keyset = { at: new Date("2026-03-02T10:00:00.123Z"), id: "msg_01" };
    expect(decodeCursor(encodeCursor(keyset))).toEqual(keyset);
  });

  it("refuses cursors it did not make", () => {
    for (const bad of ["", "!!", Buffer.from("[1,2]").toString("base64url"), "a".repeat(600)])
      expect(() => decodeCursor(bad), bad).toThrow(ValidationError);
  });

  it("bounds the limit to 1..100 with 20 by default", () => {
    expect(parseLimit(0)).toBe(20);
    expect(parseLimit(100)).toBe(100);
    expect(() => parseLimit(101)).toThrow(ValidationError);
    expect(() => parseLimit(-1)).toThrow(ValidationError);
  });
});
