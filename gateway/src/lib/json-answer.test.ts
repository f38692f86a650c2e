import fc from "fast-check";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { JsonText, jsonAnswer, serialiseWithJsonTexts } from "./json-answer.js";

describe("serialiseWithJsonTexts", () => {
  it("writes each text where it stands, as it is, and everything else as JSON.stringify does", () => {
    const body = serialiseWithJsonTexts({
      id: "e1",
      request: new JsonText('{"b": [1, 2], "a": {"x": null}}'),
      list: [new JsonText("{}"), 3],
      after: "z",
    });
    expect(body).toBe('{"id":"e1","request":{"b": [1, 2], "a": {"x": null}},"list":[{},3],"after":"z"}');
  });

  it("leaves a string that spells the mark out as it is", () => {
    const tricky = ["\\ud8000", '"\\ud8000"', "\\\\ud8001", "x\\ud800"];
    const body = serialiseWithJsonTexts({ tricky, request: new JsonText('{"k": 1}') });
    expect(JSON.parse(body)).toEqual({ tricky, request: { k: 1 } });
  });

  // Any text an answer can hold: well-formed (the gateway refuses lone surrogates, PostgreSQL cannot store them).
  const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
  const text = fc.string({ unit: "binary" }).filter((s) => !LONE_SURROGATE.test(s));

  it("answers what parsing each text and serialising the whole would, for any strings around it", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            text,
            text.map((s) => `\\ud800${s.length}`),
          ),
          { maxLength: 6 },
        ),
        fc.dictionary(fc.string(), fc.jsonValue()),
        (strings, document) => {
          const text = JSON.stringify(document);
          const value = { strings, request: new JsonText(text), more: strings.slice(1) };
          expect(JSON.parse(serialiseWithJsonTexts(value))).toEqual(JSON.parse(JSON.stringify(value)));
        },
      ),
    );
  });

  it("parses the text when something else serialises it", () => {
    expect(JSON.stringify({ request: new JsonText('{"a": 1}') })).toBe('{"request":{"a":1}}');
  });
});

describe("jsonAnswer", () => {
  it("answers with the status and the JSON content type c.json gives", async () => {
    const app = new Hono().get("/", (c) => jsonAnswer(c, { request: new JsonText('{"a": 1}') }, 201));
    const response = await app.request("/");
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.text()).toBe('{"request":{"a": 1}}');
  });
});
