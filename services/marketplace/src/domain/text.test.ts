import { ValidationError } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { JSON_TEXT_MAX_BYTES, parseJsonObject } from "./text.js";

describe("marketplace JSON text", () => {
  it("is bounded at JSON_TEXT_MAX_BYTES", () => {
    expect(parseJsonObject("profile_json", JSON.stringify({ a: "x".repeat(1000) }))).toHaveProperty("a");
    const huge = JSON.stringify({ a: "x".repeat(JSON_TEXT_MAX_BYTES) });
    expect(() => parseJsonObject("profile_json", huge)).toThrow(ValidationError);
  });
});
