/**
 * While a model is described twice, by a domain zod schema (which validates REST input with its
 * lenient spellings and limits) and by a proto message (its one wire definition, decisions.md
 * D335), drift tests compare the two: field names, nesting, list/map and enum spellings.
 * `zodMessageMismatches` lists every difference ([] when none); it reads zod 4's `def`.
 * A `(petri.common.v1.rest_list)` message is compared as its list; google.protobuf.Struct as a
 * zod record; google.protobuf.Value holds any JSON (a REST union), so any zod type matches it.
 */
import { type DescField, type DescMessage, getOption, hasOption } from "@bufbuild/protobuf";
import { rest_list } from "@petri/contracts/common";
import { restSpellings } from "@petri/contracts/rest-json";

type Def = { type: string; [key: string]: unknown };
const defOf = (schema: unknown): Def => (schema as { def: Def }).def;
const WRAPPERS = ["optional", "default", "nullable", "prefault", "pipe", "transform"];

/** The schema under optional/default/nullable wrappers (and a pipe's output side). */
function unwrap(schema: unknown): Def {
  let def = defOf(schema);
  for (let i = 0; i < 10 && WRAPPERS.includes(def.type); i++) {
    if (def.type === "pipe") {
      const out = defOf(def.out);
      def = out.type === "transform" ? defOf(def.in) : out;
    } else def = defOf(def.innerType);
  }
  return def;
}

/** Every difference between a zod object schema and a message, each as `path: what`. */
export function zodMessageMismatches(schema: unknown, desc: DescMessage, path = ""): string[] {
  const def = unwrap(schema);
  if (def.type !== "object") return [`${path}: zod ${def.type}, proto message ${desc.typeName}`];
  const shape = def.shape as Record<string, unknown>;
  const fields = new Map(desc.fields.map((f) => [f.name, f]));
  const out: string[] = [];
  for (const key of Object.keys(shape))
    if (!fields.has(key)) out.push(`${path}.${key}: not in ${desc.typeName}`);
  for (const field of desc.fields) {
    if (!(field.name in shape)) out.push(`${path}.${field.name}: not in the zod schema`);
    else out.push(...fieldMismatches(shape[field.name], field, `${path}.${field.name}`));
  }
  return out;
}

/** The repeated field a `(petri.common.v1.rest_list)` message stands for in REST. */
function listOf(field: DescField): DescField | undefined {
  const message = field.fieldKind === "message" ? field.message : undefined;
  return message && hasOption(message, rest_list) && getOption(message, rest_list)
    ? message.fields[0]
    : undefined;
}

function fieldMismatches(schema: unknown, declared: DescField, path: string): string[] {
  const field = listOf(declared) ?? declared;
  let def = unwrap(schema);
  if (field.message?.typeName === "google.protobuf.Value") return [];
  if (field.message?.typeName === "google.protobuf.Struct")
    return def.type === "record" ? [] : [`${path}: zod ${def.type}, proto google.protobuf.Struct`];
  if (field.fieldKind === "list" || field.fieldKind === "map") {
    const expected = field.fieldKind === "list" ? "array" : "record";
    if (def.type !== expected) return [`${path}: zod ${def.type}, proto ${field.fieldKind}`];
    def = unwrap(field.fieldKind === "list" ? def.element : def.valueType);
  }
  const message =
    field.fieldKind === "message" || field.fieldKind === "list" || field.fieldKind === "map"
      ? field.message
      : undefined;
  if (message) return zodMessageMismatches({ def }, message, path);
  const enumDesc = field.enum;
  if (enumDesc && def.type === "enum") {
    const options = Object.values(def.entries as Record<string, string>).sort();
    const spellings = [...restSpellings(enumDesc).toName.keys()].sort();
    if (options.join() !== spellings.join()) return [`${path}: zod [${options}], proto [${spellings}]`];
  }
  return [];
}
