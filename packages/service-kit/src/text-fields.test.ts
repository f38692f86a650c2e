import { describe, expect, it } from "vitest";
import { ValidationError } from "./errors.js";
import { optionalText, parseJsonObjectField, requiredText } from "./text-fields.js";

function errorOf(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error.fieldErrors[0];
    throw error;
  }
  return undefined;
}

describe("text fields", () => {
  it("requiredText trims and bounds in characters", () => {
    expect(requiredText("reason", "  late  ", 10)).toBe("late");
    expect(errorOf(() => requiredText("reason", "   ", 10))).toMatchObject({
      field: "reason",
      code: "missing_required",
    });
    expect(errorOf(() => requiredText("reason", "x".repeat(11), 10))).toMatchObject({
      code: "invalid_value",
    });
    expect(requiredText("reason", "é".repeat(10), 10)).toHaveLength(10);
    expect(requiredText("reason", "🧪".repeat(10), 10)).toBe("🧪".repeat(10));
  });

  it("optionalText allows empty and bounds", () => {
    expect(optionalText("note", "  ", 5)).toBe("");
    expect(optionalText("note", " ok ", 5)).toBe("ok");
    expect(errorOf(() => optionalText("note", "x".repeat(6), 5))).toMatchObject({
      field: "note",
      code: "invalid_value",
    });
  });

  it("parseJsonObjectField accepts objects only, bounded in bytes", () => {
    expect(parseJsonObjectField("profile_json", '{"a":1}', 100)).toEqual({ a: 1 });
    expect(errorOf(() => parseJsonObjectField("profile_json", "", 100))?.code).toBe("missing_required");
    for (const bad of ["{", "[]", "1", "null", '"text"']) {
      expect(errorOf(() => parseJsonObjectField("profile_json", bad, 100))).toMatchObject({
        field: "profile_json",
        code: "invalid_value",
      });
    }
    const huge = JSON.stringify({ a: "é".repeat(60) });
    expect(errorOf(() => parseJsonObjectField("profile_json", huge, 100))?.code).toBe("invalid_value");
  });

  it("parseJsonObjectField refuses deep nesting and NUL inside the JSON, naming the member", () => {
    const deep = `{"a":${"[".repeat(3_000)}${"]".repeat(3_000)}}`;
    expect(errorOf(() => parseJsonObjectField("profile_json", deep, 100_000))).toMatchObject({
      field: "profile_json",
      code: "too_deep",
    });
    expect(errorOf(() => parseJsonObjectField("profile_json", '{"lab":"x\\u0000"}', 100))).toMatchObject({
      field: "profile_json.lab",
      code: "invalid_value",
    });
  });
});
