/**
 * REST JSON <-> proto message, driven by the message's descriptor: the one mapping for every
 * model whose REST body is a proto message (issue 17 item 1, decisions.md D335).
 *
 * REST JSON is the message's proto JSON with two differences, both read from the descriptor:
 * - field names are the proto names (snake_case), never the camelCase JSON names, and a key that
 *   is not a field is refused (REST objects are strict);
 * - an enum value is its REST spelling (the `(petri.common.v1.rest_value)` option, else the value
 *   name without the enum's prefix in lower case, as write-vocabulary.mjs spells it), never the
 *   value name; the _UNSPECIFIED value has no spelling and is written as an absent field.
 * A message marked `(petri.common.v1.rest_list)` is written as the array of its one repeated
 * field: a list REST may leave out, told apart from an empty one by the message's presence.
 * Null counts as absent. Everything else (numbers, strings, maps, lists, presence of `optional`
 * fields, a well-known type such as google.protobuf.Value, which carries a REST union of a number
 * and a string or object) is protobuf-es's proto JSON. A model whose REST JSON writes absent values
 * as null (the results record, the acceptance evaluation) asks for that with `absent: "null"`.
 */
import {
  type DescEnum,
  type DescField,
  type DescMessage,
  type JsonObject,
  type JsonValue,
  type MessageShape,
  fromJson,
  getOption,
  hasOption,
  toJson,
} from "@bufbuild/protobuf";
import { rest_list } from "./gen/petri/common/v1/rest_list_pb.js";
import { rest_value } from "./gen/petri/common/v1/rest_value_pb.js";

/** Bad REST JSON for a message: `path` is where (`capabilities.instruments[0].name`). */
export class RestJsonError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(path === "" ? reason : `${path}: ${reason}`);
    this.name = "RestJsonError";
  }
}

const upperSnake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();

interface Spellings {
  toName: Map<string, string>;
  toRest: Map<string, string>;
}
const spellingCache = new WeakMap<DescEnum, Spellings>();

/** An enum's REST spellings, both ways (value name <-> spelling), the unspecified value excluded. */
export function restSpellings(desc: DescEnum): Spellings {
  const cached = spellingCache.get(desc);
  if (cached) return cached;
  const prefix = `${upperSnake(desc.name)}_`;
  const spellings: Spellings = { toName: new Map(), toRest: new Map() };
  for (const value of desc.values) {
    if (value.number === 0) continue;
    const member = value.name.startsWith(prefix) ? value.name.slice(prefix.length) : value.name;
    const rest = hasOption(value, rest_value) ? getOption(value, rest_value) : member.toLowerCase();
    spellings.toName.set(rest, value.name);
    spellings.toRest.set(value.name, rest);
  }
  spellingCache.set(desc, spellings);
  return spellings;
}

const isObject = (value: JsonValue | undefined): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const at = (path: string, key: string | number) =>
  typeof key === "number" ? `${path}[${key}]` : path === "" ? key : `${path}.${key}`;

type Direction = "in" | "out";

/**
 * How toRestJson writes a field that can be absent (`optional` or a message) and is: left out, or
 * null; and the order of an object's keys: the message's field order, or PostgreSQL's jsonb
 * order (shorter keys first, then by their UTF-8 bytes), the order of a document the REST
 * answer passes on as PostgreSQL's text of its jsonb (the experiment request, D321).
 */
export interface RestJsonOptions {
  readonly absent?: "omitted" | "null";
  readonly keys?: "fields" | "jsonb";
}

/** Absent values written as null: what the results record and the acceptance evaluation show (D341). */
export const ABSENT_AS_NULL: RestJsonOptions = { absent: "null" };
type Element = { kind: "enum"; desc: DescEnum } | { kind: "message"; desc: DescMessage } | { kind: "scalar" };

function elementOf(field: DescField): Element {
  const kind =
    field.fieldKind === "list" ? field.listKind : field.fieldKind === "map" ? field.mapKind : field.fieldKind;
  if (kind === "enum" && field.enum) return { kind, desc: field.enum };
  if (kind === "message" && field.message) return { kind, desc: field.message };
  return { kind: "scalar" };
}

function convertEnum(
  desc: DescEnum,
  value: JsonValue,
  path: string,
  direction: Direction,
): JsonValue | undefined {
  const { toName, toRest } = restSpellings(desc);
  if (typeof value !== "string")
    throw new RestJsonError(path, `must be one of ${[...toName.keys()].join(", ")}`);
  const converted = direction === "in" ? toName.get(value) : toRest.get(value);
  if (converted !== undefined) return converted;
  if (direction === "out") return undefined; // the unspecified value: absent in REST
  throw new RestJsonError(path, `must be one of ${[...toName.keys()].join(", ")}`);
}

/** Well-known types (google.protobuf.*) have their own JSON form, taken as it is. */
const isWellKnown = (desc: DescMessage) => desc.typeName.startsWith("google.protobuf.");

/** The repeated field of a `(petri.common.v1.rest_list)` message; undefined for other messages. */
function restListField(desc: DescMessage): DescField | undefined {
  if (!hasOption(desc, rest_list) || !getOption(desc, rest_list)) return undefined;
  const [field, ...others] = desc.fields;
  if (field?.fieldKind !== "list" || others.length > 0)
    throw new Error(`${desc.typeName}: a rest_list message has exactly one field, a repeated one`);
  return field;
}

/** A rest_list message: in, the REST array becomes the proto JSON object {values: [...]}; out, back. */
function convertList(
  field: DescField,
  value: JsonValue,
  path: string,
  direction: Direction,
  options: RestJsonOptions,
): JsonValue {
  const items = direction === "out" && isObject(value) ? (value[field.name] ?? []) : value;
  // A repeated field converts to an array (or throws), never to undefined.
  const list = convertField(field, items, path, direction, options) as JsonValue[];
  return direction === "in" ? { [field.name]: list } : list;
}

function convertElement(
  element: Element,
  value: JsonValue,
  path: string,
  direction: Direction,
  options: RestJsonOptions,
) {
  if (element.kind === "enum") return convertEnum(element.desc, value, path, direction);
  const listField = element.kind === "message" ? restListField(element.desc) : undefined;
  if (listField) return convertList(listField, value, path, direction, options);
  if (element.kind === "message" && !isWellKnown(element.desc))
    return convertMessage(element.desc, value, path, direction, options);
  return value;
}

function convertField(
  field: DescField,
  value: JsonValue,
  path: string,
  direction: Direction,
  options: RestJsonOptions,
) {
  const element = elementOf(field);
  if (field.fieldKind === "list") {
    if (!Array.isArray(value)) throw new RestJsonError(path, "must be an array");
    return value.map((item, i) => convertElement(element, item, at(path, i), direction, options) ?? null);
  }
  if (field.fieldKind === "map") {
    if (!isObject(value)) throw new RestJsonError(path, "must be an object");
    const entries = Object.entries(value).map(([k, v]) => [
      k,
      convertElement(element, v, at(path, k), direction, options),
    ]);
    return Object.fromEntries(entries) as JsonObject;
  }
  return convertElement(element, value, path, direction, options);
}

/** A singular field that can be absent: a message or an `optional` scalar or enum. */
const canBeAbsent = (field: DescField) =>
  field.fieldKind === "message" ||
  ((field.fieldKind === "scalar" || field.fieldKind === "enum") && field.proto.proto3Optional);

function convertMessage(
  desc: DescMessage,
  value: JsonValue,
  path: string,
  direction: Direction,
  options: RestJsonOptions = {},
): JsonObject {
  if (!isObject(value)) throw new RestJsonError(path, "must be an object");
  const byName = new Map(desc.fields.map((f) => [f.name, f]));
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    const field = byName.get(key);
    if (!field) throw new RestJsonError(at(path, key), "is not a field of this object");
    if (item === null) continue;
    const converted = convertField(field, item, at(path, key), direction, options);
    if (converted !== undefined) out[key] = converted;
  }
  if (direction !== "out" || options.absent !== "null") return out;
  // In field order, as the REST answers list their keys.
  const withNulls: JsonObject = {};
  for (const field of desc.fields)
    if (field.name in out) withNulls[field.name] = out[field.name]!;
    else if (canBeAbsent(field)) withNulls[field.name] = null;
  return withNulls;
}

/** Parses a REST JSON body into a message; throws RestJsonError (with the path) on bad input. */
export function fromRestJson<Desc extends DescMessage>(schema: Desc, json: JsonValue): MessageShape<Desc> {
  const protoJson = convertMessage(schema, json, "", "in");
  try {
    return fromJson(schema, protoJson, { ignoreUnknownFields: false });
  } catch (error) {
    throw new RestJsonError("", error instanceof Error ? error.message : String(error));
  }
}

/** Writes a message as REST JSON: proto field names, REST enum spellings, implicit values shown. */
export function toRestJson<Desc extends DescMessage>(
  schema: Desc,
  message: MessageShape<Desc>,
  options: RestJsonOptions = {},
): JsonObject {
  const protoJson = toJson(schema, message, { useProtoFieldName: true, alwaysEmitImplicit: true });
  const json = convertMessage(schema, protoJson, "", "out", options);
  return options.keys === "jsonb" ? (inJsonbOrder(json) as JsonObject) : json;
}

const utf8 = new TextEncoder();
const PRINTABLE_ASCII = /^[\u0020-\u007e]*$/;

/** PostgreSQL's jsonb key order: shorter keys first (in bytes), then bytewise. */
function inJsonbKeyOrder(keys: string[]): string[] {
  // Printable ASCII keys (every proto field name) compare the same as text as they do as bytes.
  if (keys.every((key) => PRINTABLE_ASCII.test(key)))
    return keys.sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  const encoded = keys.map((key) => ({ key, bytes: utf8.encode(key) }));
  encoded.sort((a, b) => a.bytes.length - b.bytes.length || compareBytes(a.bytes, b.bytes));
  return encoded.map(({ key }) => key);
}

function compareBytes(x: Uint8Array, y: Uint8Array): number {
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

/** Every object of `value` with its keys in PostgreSQL's jsonb order. */
function inJsonbOrder(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(inJsonbOrder);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    inJsonbKeyOrder(Object.keys(value)).map((key) => [key, inJsonbOrder(value[key]!)]),
  );
}

/**
 * A stored document as its message when it fits the message; undefined when it does not (the
 * caller then sends the JSON text only rather than failing the call). Unlike exactRestMessage it
 * accepts a document whose message writes back other JSON: keys in another order (as a jsonb
 * column returns them) or an implicit value shown (D336).
 */
export function fittingRestMessage<Desc extends DescMessage>(
  schema: Desc,
  value: unknown,
): MessageShape<Desc> | undefined {
  try {
    return fromRestJson(schema, JSON.parse(JSON.stringify(value)) as JsonValue);
  } catch {
    return undefined;
  }
}

/**
 * A stored document as its message, when the message writes back exactly its REST JSON (`value`
 * as JSON.stringify would write it, keys in the same order); undefined otherwise (it does not
 * fit, or holds what the message cannot say, such as a non-finite number). The caller then sends
 * the JSON text only, so a typed field never changes what REST shows.
 */
export function exactRestMessage<Desc extends DescMessage>(
  schema: Desc,
  value: unknown,
  options: RestJsonOptions = {},
): MessageShape<Desc> | undefined {
  const text = JSON.stringify(value);
  const message = fittingRestMessage(schema, value);
  if (message === undefined) return undefined;
  try {
    return JSON.stringify(toRestJson(schema, message, options)) === text ? message : undefined;
  } catch {
    return undefined;
  }
}
