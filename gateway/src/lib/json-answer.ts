/**
 * Answers that carry a service's JSON text as it is. The stored experiment request arrives as
 * PostgreSQL's text of its jsonb (decisions.md D351); parsing it only to serialise it again
 * was the gateway's largest single cost of GET /experiments/{id} (D358).
 */
import type { Context, TypedResponse } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { JSONParsed } from "hono/utils/types";

/**
 * Where a JSON object text goes in an answer. Serialised by `jsonAnswer` it is written as it is;
 * by anything else (JSON.stringify, c.json) it is parsed, so it is never wrong, only slower.
 */
export class JsonText {
  constructor(readonly text: string) {}

  toJSON(): Record<string, unknown> {
    if (collecting) {
      collecting.push(this.text);
      // Typed as what it stands for: serialiseWithJsonTexts puts the text in its place.
      return `${MARK}${collecting.length - 1}` as unknown as Record<string, unknown>;
    }
    return JSON.parse(this.text) as Record<string, unknown>;
  }
}

/**
 * The mark that stands for a text while the answer is serialised: a lone surrogate, which
 * JSON.stringify writes as the escape `\ud800`. No string of an answer can hold one (the gateway
 * refuses them in requests and PostgreSQL cannot store them), and a string that spells the escape
 * out is serialised with its backslash doubled, so the pattern below matches marks only.
 */
const MARK = "\ud800";
const MARKED = /"\\ud800(\d+)"/g;

/** The texts of the serialisation under way (JSON.stringify is synchronous: one at a time). */
let collecting: string[] | undefined;

/** `value` as JSON, each JsonText written in place. */
export function serialiseWithJsonTexts(value: unknown): string {
  const texts: string[] = [];
  collecting = texts;
  let serialised: string;
  try {
    serialised = JSON.stringify(value);
  } finally {
    collecting = undefined;
  }
  return texts.length === 0
    ? serialised
    : serialised.replace(MARKED, (_, index: string) => texts[Number(index)]!);
}

/** What c.json(value, status) answers (and its type), with each JsonText written as it is. */
export function jsonAnswer<T, S extends ContentfulStatusCode>(
  c: Context,
  value: T,
  status: S,
): Response & TypedResponse<JSONParsed<T>, S, "json"> {
  const body = serialiseWithJsonTexts(value);
  return c.body(body, status, { "Content-Type": "application/json" }) as unknown as Response &
    TypedResponse<JSONParsed<T>, S, "json">;
}
