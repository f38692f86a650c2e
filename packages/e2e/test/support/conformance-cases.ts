/**
 * The conformance cases of one operation, derived from its description in the OpenAPI
 * document: for every path parameter an unknown and malformed ids; for every query parameter
 * a wrong type, an unknown enum value, a NUL character, a missing required one and a huge
 * value; for a JSON body a wrong content type, malformed JSON, a non-object, each required
 * field missing, each field of the wrong type, NUL characters, an unknown field, 5,000 levels
 * of nesting and a 2 MiB string. Each case names the statuses a correct gateway answers.
 */
import { sample } from "openapi-sampler";
import type { Operation, Schema } from "./openapi-contract.js";

export interface Case {
  name: string;
  /** Path parameter values, raw (already percent-encoded where they need to be). */
  params: Record<string, string>;
  query: Record<string, string>;
  /** A raw query string that replaces `query` (for the huge-value case). */
  rawQuery?: string;
  body?: string;
  contentType?: string;
  expect: readonly number[];
}

export interface Base {
  params: Record<string, string>;
  query: Record<string, string>;
  /** A valid JSON body (undefined: the operation takes none). */
  body?: unknown;
}

const NESTING = 5_000;
const HUGE_STRING = 2 * 1024 * 1024;
const MAX_FIELDS = 6;

/** The path with its parameters filled in. */
export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for {${name}} of ${template}`);
    return value;
  });
}

export function queryString(query: Record<string, string>): string {
  return new URLSearchParams(query).toString();
}

/** A well-formed id that names nothing: the base id's prefix and zeros. */
function unknownId(name: string, base: string): string {
  if (name === "file") return "no-such-asset.js";
  if (name === "provider_id") return "no-such-lab";
  const prefix = /^([a-z]+_)/.exec(base)?.[1] ?? "";
  return `${prefix}${"0".repeat(26)}`;
}

function typeOf(schema: Schema | undefined): string | undefined {
  if (!schema) return undefined;
  if (Array.isArray(schema.type)) return schema.type.find((t: string) => t !== "null");
  return schema.type;
}

/** A value of the wrong JSON type for `schema` (undefined when its type is not plain). */
function wrongValue(schema: Schema): unknown {
  switch (typeOf(schema)) {
    case "string":
      return 12345;
    case "number":
    case "integer":
      return "twelve";
    case "boolean":
      return "yes";
    case "array":
      return { not: "an array" };
    case "object":
      return ["not an object"];
    default:
      return undefined;
  }
}

/** `depth` levels of nested arrays, as JSON text. */
/**
 * What a field-level mistake (missing, wrong type, NUL, unknown field) may answer: 422; the
 * check-only operations report it in a 200 {valid: false} (or, for the estimate of a partial
 * request, leave the field out of the price); and where the services validate
 * the body (the experiment request, results, reviews), the object's state is checked first,
 * so an operation that documents 409 may answer it for an object in the wrong state.
 */
function fieldExpectations(operation: Operation): readonly number[] {
  if (["validateExperiment", "validateHypothesis", "estimateExperiment"].includes(operation.operationId))
    return [200, 422];
  return operation.responses["409"] ? [422, 409] : [422];
}

/**
 * What a body that is not acceptable JSON at all (malformed, not an object, too deep) may
 * answer: 422; for an operation whose body is streamed to the service (the results
 * submission), the service checks the caller and the object's state on the stream's first
 * message, before any of the body is read, so a wrong state answers 409 first.
 */
function structuralExpectations(operation: Operation): readonly number[] {
  return STREAMED_OPERATIONS.has(operation.operationId) && operation.responses["409"] ? [422, 409] : [422];
}

const STREAMED_OPERATIONS = new Set(["submitResults"]);

function nested(depth: number): string {
  return `${"[".repeat(depth)}${"]".repeat(depth)}`;
}

export function sampleBody(operation: Operation, document: unknown): unknown {
  if (!operation.body) return undefined;
  return sample(operation.body.schema as any, { skipReadOnly: true, quiet: true }, document as any);
}

export function negativeCases(
  operation: Operation,
  base: Base,
  contract: { resolve(s: Schema): Schema },
): Case[] {
  const cases: Case[] = [];
  // Every case but the body's own carries the valid body, so only the one thing is wrong.
  const validBody =
    operation.body && base.body !== undefined
      ? { body: JSON.stringify(base.body), contentType: "application/json" }
      : {};
  const add = (c: Partial<Case> & Pick<Case, "name" | "expect">) =>
    cases.push({ params: base.params, query: base.query, ...validBody, ...c });

  for (const parameter of operation.parameters.filter((p) => p.in === "path")) {
    const name = parameter.name;
    const value = base.params[name] ?? "";
    const swap = (replacement: string) => ({ ...base.params, [name]: replacement });
    // A signed file URL checks its signature first: another id fails it (403) or is unknown.
    const unknown = operation.operationId === "getResultFile" ? [403, 404] : [404];
    add({ name: `unknown ${name}`, params: swap(unknownId(name, value)), expect: unknown });
    add({ name: `malformed ${name} (NUL)`, params: swap(`${value.slice(0, 4)}%00x`), expect: [404] });
    add({ name: `malformed ${name} (300 characters)`, params: swap("x".repeat(300)), expect: [404] });
    add({ name: `malformed ${name} (spaces, quotes)`, params: swap("a%20b%22%3Cc%3E"), expect: [404] });
  }

  const queryParameters = operation.parameters.filter((p) => p.in === "query");
  for (const parameter of queryParameters) {
    const name = parameter.name;
    const schema = contract.resolve(parameter.schema ?? {});
    const withValue = (value: string) => ({ ...base.query, [name]: value });
    const type = typeOf(schema);
    if (type === "integer" || type === "number")
      add({ name: `query ${name} not a number`, query: withValue("abc"), expect: [422] });
    if (type === "boolean")
      add({ name: `query ${name} not a boolean`, query: withValue("maybe"), expect: [422] });
    if (Array.isArray(schema.enum))
      add({ name: `query ${name} not in its enum`, query: withValue("no_such_value"), expect: [422] });
    if (schema.format === "date-time")
      add({ name: `query ${name} not a date-time`, query: withValue("yesterday"), expect: [422] });
    add({ name: `query ${name} with NUL`, query: withValue("a\u0000b"), expect: [422] });
    if (parameter.required) {
      const { [name]: _, ...rest } = base.query;
      add({ name: `query ${name} missing`, query: rest, expect: [422] });
    }
  }
  if (queryParameters.length > 0) {
    const name = queryParameters[0]!.name;
    add({
      name: `query ${name} of 64 KiB`,
      query: {},
      rawQuery: `${queryString(base.query)}&${name}=${"q".repeat(64 * 1024)}`,
      // The request line alone is larger than Node's header limit (16 KiB): 431 or 414.
      expect: [414, 422, 431],
    });
  }

  if (!operation.body) return cases;
  const json = "application/json";
  const valid = base.body ?? {};
  add({ name: "body as text/plain", body: JSON.stringify(valid), contentType: "text/plain", expect: [415] });
  const structural = structuralExpectations(operation);
  add({ name: "malformed JSON", body: '{"truncated":', contentType: json, expect: structural });
  add({ name: "body not an object", body: "[1,2,3]", contentType: json, expect: structural });
  add({
    name: `body nested ${NESTING} levels`,
    body: `{"deep":${nested(NESTING)}}`,
    contentType: json,
    expect: structural,
  });

  const schema = operation.body.schema;
  const properties: Record<string, Schema> = schema.properties ?? {};
  const object =
    valid && typeof valid === "object" && !Array.isArray(valid) ? (valid as Record<string, unknown>) : {};
  const send = (name: string, value: unknown, expect: readonly number[]) =>
    add({ name, body: JSON.stringify(value), contentType: json, expect });
  const fieldExpected = fieldExpectations(operation);

  for (const field of (schema.required ?? []).slice(0, MAX_FIELDS)) {
    const { [field]: _, ...rest } = object;
    send(`body without required ${field}`, rest, fieldExpected);
  }
  for (const [field, property] of Object.entries(properties).slice(0, MAX_FIELDS)) {
    const wrong = wrongValue(contract.resolve(property));
    if (wrong !== undefined)
      send(`body ${field} of the wrong type`, { ...object, [field]: wrong }, fieldExpected);
  }
  const strings = Object.entries(properties).filter(([, p]) => typeOf(contract.resolve(p)) === "string");
  for (const [field] of strings.slice(0, 3)) {
    send(`body ${field} with NUL`, { ...object, [field]: `a\u0000b` }, fieldExpected);
  }
  if (schema.additionalProperties === false)
    send("body with an unknown field", { ...object, zz_not_a_field: 1 }, fieldExpected);
  const target = strings[0]?.[0] ?? "huge";
  send(
    `body ${target} of 2 MiB`,
    { ...object, [target]: "x".repeat(HUGE_STRING) },
    // Over the 1 MiB default; operations with a larger limit (results) reject the field.
    operation.operationId === "submitResults" ? fieldExpected : [413],
  );
  // As text: JSON.stringify itself would overflow the stack on 5,000 levels.
  const deep = `${'{"a":'.repeat(NESTING)}{}${"}".repeat(NESTING)}`;
  add({
    name: `body ${target} nested objects ${NESTING} levels`,
    body: JSON.stringify({ ...object, [target]: "__deep__" }).replace('"__deep__"', deep),
    contentType: json,
    expect: structural,
  });
  return cases;
}
