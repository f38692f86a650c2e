import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json.js";

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
});
