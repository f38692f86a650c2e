import { ValidationError } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { JSON_TEXT_MAX_BYTES, parseJsonObject, requiredText } from "./text.js";

function errorOf(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error.fieldErrors[0];
    throw error;
  }
  return undefined;
}

describe("text", () => {
  it("requiredText trims and bounds", () => {
    expect(requiredText("reason", "  late  ", 10)).toBe("late");
    expect(errorOf(() => requiredText("reason", "   ", 10))).toMatchObject({
      field: "reason",
      code: "missing_required",
    });
    expect(errorOf(() => requiredText("reason", "x".repeat(11), 10))).toMatchObject({
      code: "invalid_value",
    });
    expect(requiredText("reason", "é".repeat(10), 10)).toHaveLength(10);
  });

  it("parseJsonObject accepts objects only, bounded", () => {
    expect(parseJsonObject("profile_json", '{"a":1}')).toEqual({ a: 1 });
    expect(errorOf(() => parseJsonObject("profile_json", ""))?.code).toBe("missing_required");
    for (const bad of ["{", "[]", "1", "null"]) {
      expect(errorOf(() => parseJsonObject("profile_json", bad))).toMatchObject({
        field: "profile_json",
        code: "invalid_value",
      });
    }
    const huge = JSON.stringify({ a: "x".repeat(JSON_TEXT_MAX_BYTES) });
    expect(errorOf(() => parseJsonObject("profile_json", huge))?.code).toBe("invalid_value");
  });
});
