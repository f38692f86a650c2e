import { describe, expect, it } from "vitest";
import { CANONICAL_JSON_MAX_DEPTH, canonicalJson } from "./canonical-json.js";
import { ValidationError } from "./errors.js";

describe("canonicalJson", () => {
  it("sorts keys at every depth, keeps array order and drops undefined members", () => {
    expect(canonicalJson({ b: 1, a: [3, { d: 1, c: 2 }], u: undefined })).toBe(
      '{"a":[3,{"c":2,"d":1}],"b":1}',
    );
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
    expect(canonicalJson("x")).toBe('"x"');
  });

  it("refuses a value JSON cannot represent", () => {
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
  });

  it("refuses a value nested 5,000 levels deep with a ValidationError instead of overflowing the stack", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 5_000; i += 1) deep = i % 2 === 0 ? [deep] : { a: deep };
    expect(() => canonicalJson(deep)).toThrow(ValidationError);
  });

  it("still serialises a value exactly at the limit", () => {
    let deep: unknown = 1;
    for (let i = 0; i < CANONICAL_JSON_MAX_DEPTH; i += 1) deep = [deep];
    expect(canonicalJson(deep)).toBe(
      `${"[".repeat(CANONICAL_JSON_MAX_DEPTH)}1${"]".repeat(CANONICAL_JSON_MAX_DEPTH)}`,
    );
  });
});
