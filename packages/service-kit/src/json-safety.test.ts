import { describe, expect, it } from "vitest";
import { ValidationError } from "./errors.js";
import {
  JsonSyntaxError,
  MAX_JSON_DEPTH,
  jsonNestingExceeds,
  parseSafeJson,
  unsafeTextInJson,
  unsafeTextReason,
} from "./json-safety.js";

const nested = (levels: number, open = "[", close = "]") => `${open.repeat(levels)}${close.repeat(levels)}`;

describe("unsafeTextReason", () => {
  it("names NUL and lone surrogates, and accepts other text including paired surrogates", () => {
    expect(unsafeTextReason("a\u0000b")).toBe("nul_character");
    expect(unsafeTextReason("x\ud800")).toBe("ill_formed_unicode");
    expect(unsafeTextReason("\udc00y")).toBe("ill_formed_unicode");
    expect(unsafeTextReason("emoji 😀 and ü")).toBeUndefined();
    expect(unsafeTextReason("")).toBeUndefined();
  });
});

describe("jsonNestingExceeds", () => {
  it("counts arrays and objects, up to the limit inclusive", () => {
    expect(jsonNestingExceeds(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonNestingExceeds(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonNestingExceeds('{"a":'.repeat(65) + "1" + "}".repeat(65))).toBe(true);
    expect(jsonNestingExceeds(nested(3, "[", "]"), 2)).toBe(true);
  });

  it("ignores brackets inside strings, including after escaped quotes and backslashes", () => {
    const text = JSON.stringify({ a: "[".repeat(200), b: '\\"{{{{', c: "\\" + "{".repeat(100) });
    expect(jsonNestingExceeds(text)).toBe(false);
  });

  it("scans sibling containers without adding their depths", () => {
    expect(jsonNestingExceeds(`[${Array.from({ length: 500 }, () => "[[]]").join(",")}]`)).toBe(false);
  });

  it("handles 5,000 levels (one pass, no recursion)", () => {
    expect(jsonNestingExceeds(nested(5_000))).toBe(true);
  });
});

describe("unsafeTextInJson", () => {
  it("names every offending string and key by its dotted path", () => {
    const value = { title: "t\u0000", items: [{ name: "ok" }, { name: "\ud800" }], ["k\u0000"]: 1 };
    expect(
      unsafeTextInJson(value)
        .map((e) => e.field)
        .sort(),
    ).toEqual(['"k\\u0000"', "items.1.name", "title"]);
    expect(unsafeTextInJson({ a: "b" })).toEqual([]);
    expect(unsafeTextInJson("\u0000", "body")).toEqual([
      { field: "body", code: "invalid_value", message: expect.stringContaining("NUL") },
    ]);
  });

  it("prefixes paths with the field and lists at most 20", () => {
    expect(unsafeTextInJson({ a: "\u0000" }, "request_json")[0]!.field).toBe("request_json.a");
    expect(unsafeTextInJson(Array.from({ length: 100 }, () => "\u0000"))).toHaveLength(20);
  });
});

describe("parseSafeJson", () => {
  it("parses good JSON", () => {
    expect(parseSafeJson("intake", '{"a":[1,"x"]}')).toEqual({ a: [1, "x"] });
  });

  it("refuses deep nesting, NUL inside the JSON and syntax errors as ValidationErrors naming the field", () => {
    const tooDeep = () => parseSafeJson("intake", nested(4_000));
    expect(tooDeep).toThrow(ValidationError);
    try {
      tooDeep();
    } catch (error) {
      expect((error as ValidationError).fieldErrors).toEqual([
        { field: "intake", code: "too_deep", message: expect.stringContaining("64") },
      ]);
    }
    try {
      parseSafeJson("intake", '{"title":"a\\u0000b"}');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).fieldErrors[0]!.field).toBe("intake.title");
    }
    expect(() => parseSafeJson("intake", "{")).toThrow(JsonSyntaxError);
  });
});
