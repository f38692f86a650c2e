/**
 * JSON text a service sent in a message (a `*_json` string field), read once for every service:
 * "" is proto3's absent value and reads as null; text that is not what it should be is the
 * service's bug, an error naming the service and what it sent. And the typed field that
 * replaced such a text (D336, D342, D352, D355, D356): written by @petri/contracts/rest-json
 * when the service set it, else the text read, from a service built before it.
 */
import type { DescMessage, MessageShape } from "@bufbuild/protobuf";
import { type RestJsonOptions, toRestJson } from "@petri/contracts/rest-json";
import { JsonText } from "./json-answer.js";

export type JsonObject = Record<string, unknown>;

/** Who sent a text and what it is ("a protocol"), as the error says it. */
export interface SentText {
  readonly service: string;
  readonly what: string;
}

const sentError = ({ service, what }: SentText, problem: string) =>
  new Error(`the ${service} service sent ${what} that is ${problem}`);

/** Any JSON value; "" is null. */
export function parseJsonText(text: string, sent: SentText): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw sentError(sent, "not JSON");
  }
}

/** A JSON object; "" is null. The text `null` is refused: a service sends "" for no object. */
export function parseObjectText(text: string, sent: SentText): JsonObject | null {
  const value = parseJsonText(text, sent);
  if (text !== "" && (value === null || typeof value !== "object" || Array.isArray(value)))
    throw sentError(sent, "not a JSON object");
  return value as JsonObject | null;
}

/** A JSON object the message always has: "" is refused too. */
export function requiredObjectText(text: string, sent: SentText): JsonObject {
  const value = parseObjectText(text, sent);
  if (value === null) throw sentError(sent, "empty");
  return value;
}

/**
 * A JSON object text to be written into the answer as it is, not parsed (D358): only checked to
 * be an object's. "" is refused: the caller says what stands for none.
 */
export function writtenObjectText(text: string, sent: SentText): JsonText {
  if (!text.startsWith("{")) throw sentError(sent, text === "" ? "empty" : "not a JSON object");
  return new JsonText(text);
}

/** The typed field written as REST JSON when the service set it, else its JSON object text. */
export function typedOrText<Desc extends DescMessage>(
  schema: Desc,
  typed: MessageShape<Desc> | undefined,
  text: string,
  sent: SentText,
  options?: RestJsonOptions,
): JsonObject | null {
  return typed ? toRestJson(schema, typed, options) : parseObjectText(text, sent);
}

/** typedOrText for an object the message always has: with neither form it is an error. */
export function typedOrRequiredText<Desc extends DescMessage>(
  schema: Desc,
  typed: MessageShape<Desc> | undefined,
  text: string,
  sent: SentText,
  options?: RestJsonOptions,
): JsonObject {
  return typed ? toRestJson(schema, typed, options) : requiredObjectText(text, sent);
}
