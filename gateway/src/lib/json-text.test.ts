import { create } from "@bufbuild/protobuf";
import { IntakeInterpretationSchema } from "@petri/contracts/cloudlabs";
import { EditedHypothesisSchema } from "@petri/contracts/engine";
import { ABSENT_AS_NULL } from "@petri/contracts/rest-json";
import { describe, expect, it } from "vitest";
import { JsonText, serialiseWithJsonTexts } from "./json-answer.js";
import {
  parseJsonText,
  parseObjectText,
  requiredObjectText,
  typedOrRequiredText,
  typedOrText,
  writtenObjectText,
} from "./json-text.js";

const sent = { service: "engine", what: "a result" };

describe("JSON text a service sent", () => {
  it("reads any JSON value; the empty text is null", () => {
    expect(parseJsonText('[1,"a"]', sent)).toEqual([1, "a"]);
    expect(parseJsonText("7", sent)).toBe(7);
    expect(parseJsonText("", sent)).toBeNull();
  });

  it("names the service and what it sent when the text is not JSON", () => {
    expect(() => parseJsonText("{not json", sent)).toThrow(
      "the engine service sent a result that is not JSON",
    );
  });

  it("reads an object; the empty text is null; any other value is the service's error", () => {
    expect(parseObjectText('{"b":1,"a":[2]}', sent)).toEqual({ b: 1, a: [2] });
    expect(parseObjectText("", sent)).toBeNull();
    for (const text of ["null", "[]", "3", '"x"', "true"])
      expect(() => parseObjectText(text, sent), text).toThrow(
        "the engine service sent a result that is not a JSON object",
      );
    expect(() => parseObjectText("{", sent)).toThrow("that is not JSON");
  });

  it("refuses the empty text where the message always has the object", () => {
    expect(requiredObjectText('{"a":1}', sent)).toEqual({ a: 1 });
    expect(() => requiredObjectText("", sent)).toThrow("the engine service sent a result that is empty");
    expect(() => requiredObjectText("[]", sent)).toThrow("that is not a JSON object");
  });
});

describe("the typed field, else its JSON text", () => {
  const typed = create(EditedHypothesisSchema, { statement: "PX-17 inhibits growth", nullHypothesis: "" });

  it("writes the typed field when set, in the options asked for, and ignores the text", () => {
    const text = JSON.stringify({ statement: "the text form" });
    expect(JSON.stringify(typedOrText(EditedHypothesisSchema, typed, text, sent))).toBe(
      '{"statement":"PX-17 inhibits growth","null_hypothesis":""}',
    );
    const reading = create(IntakeInterpretationSchema, { confidence: 0.5, notes: ["n"] });
    expect(Object.keys(typedOrText(IntakeInterpretationSchema, reading, "", sent) ?? {})).toEqual([
      "confidence",
      "notes",
    ]);
    const asked = typedOrText(IntakeInterpretationSchema, reading, "", sent, {
      ...ABSENT_AS_NULL,
      keys: "jsonb",
    });
    expect(JSON.stringify(asked)).toBe('{"notes":["n"],"confidence":0.5,"parameters":null}');
  });

  it("reads the text when the typed field is unset: null when empty, an error when not an object", () => {
    const text = '{"null_hypothesis":"n","statement":"s"}';
    expect(JSON.stringify(typedOrText(EditedHypothesisSchema, undefined, text, sent))).toBe(text);
    expect(typedOrText(EditedHypothesisSchema, undefined, "", sent)).toBeNull();
    expect(() => typedOrText(EditedHypothesisSchema, undefined, "[]", sent)).toThrow("not a JSON object");
  });

  it("where the message always has the object, neither form is an error", () => {
    expect(typedOrRequiredText(EditedHypothesisSchema, typed, "", sent)).toEqual({
      statement: "PX-17 inhibits growth",
      null_hypothesis: "",
    });
    expect(typedOrRequiredText(EditedHypothesisSchema, undefined, '{"statement":"s"}', sent)).toEqual({
      statement: "s",
    });
    expect(() => typedOrRequiredText(EditedHypothesisSchema, undefined, "", sent)).toThrow(
      "the engine service sent a result that is empty",
    );
  });
});

describe("writtenObjectText", () => {
  const sent = { service: "experiments", what: "a request" };

  it("keeps an object's text to be written as it is", () => {
    const text = '{"b": 1, "a": [true]}';
    const written = writtenObjectText(text, sent);
    expect(written).toBeInstanceOf(JsonText);
    expect(serialiseWithJsonTexts({ request: written })).toBe(`{"request":${text}}`);
  });

  it("refuses an empty text and one that is not an object's, naming the service", () => {
    expect(() => writtenObjectText("", sent)).toThrow("the experiments service sent a request that is empty");
    expect(() => writtenObjectText("[1]", sent)).toThrow("not a JSON object");
  });
});
