import { ValidationError } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { parseJsonText } from "./intake.js";

function fieldsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).fieldErrors.map((e) => `${e.field}:${e.code}`);
  }
  throw new Error("expected a ValidationError");
}

describe("parseJsonText (request_json)", () => {
  it("refuses deep nesting before parsing, and NUL or lone surrogates inside the JSON, naming the field", () => {
    expect(fieldsOf(() => parseJsonText(`${"[".repeat(4_000)}${"]".repeat(4_000)}`))).toEqual([":too_deep"]);
    expect(fieldsOf(() => parseJsonText('{"title":"a\\u0000b"}'))).toEqual(["title:invalid_value"]);
    expect(fieldsOf(() => parseJsonText('{"steps":["ok","\\ud800"]}'))).toEqual(["steps.1:invalid_value"]);
    expect(fieldsOf(() => parseJsonText("{"))).toEqual([":invalid_value"]);
  });

  it("parses ordinary JSON, and empty text as {}", () => {
    expect(parseJsonText('{"title":"ü 😀"}')).toEqual({ title: "ü 😀" });
    expect(parseJsonText("")).toEqual({});
  });
});
