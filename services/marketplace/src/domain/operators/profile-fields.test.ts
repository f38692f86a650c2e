/**
 * Until the domain validates the typed messages (decisions.md D335, next step), its zod
 * schemas and the proto messages describe the same models twice: this test fails when they name
 * different fields, nest differently, or spell an enum differently.
 */
import type { DescField, DescMessage } from "@bufbuild/protobuf";
import { OperatorProfileSchema, VerificationRecordSchema } from "@petri/contracts/marketplace";
import { restSpellings } from "@petri/contracts/rest-json";
import { describe, expect, it } from "vitest";
import type { z } from "zod";

import { operatorProfileSchema } from "./profile.js";
import { verificationRecordSchema } from "./verification.js";

type Def = { type: string; [key: string]: unknown };
const defOf = (schema: unknown): Def => (schema as { def: Def }).def;

/** The schema under optional/default/nullable wrappers. */
function unwrap(schema: unknown): Def {
  let def = defOf(schema);
  for (let i = 0; i < 10 && ["optional", "default", "nullable", "prefault"].includes(def.type); i++)
    def = defOf(def.innerType);
  return def;
}

function mismatches(schema: unknown, desc: DescMessage, path: string): string[] {
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

function fieldMismatches(schema: unknown, field: DescField, path: string): string[] {
  let def = unwrap(schema);
  if (field.fieldKind === "list" || field.fieldKind === "map") {
    const expected = field.fieldKind === "list" ? "array" : "record";
    if (def.type !== expected) return [`${path}: zod ${def.type}, proto ${field.fieldKind}`];
    def = unwrap(field.fieldKind === "list" ? def.element : def.valueType);
  }
  const message =
    field.fieldKind === "message" || field.fieldKind === "list" || field.fieldKind === "map"
      ? field.message
      : undefined;
  if (message) return mismatches({ def }, message, path);
  const enumDesc = field.enum;
  if (enumDesc && def.type === "enum") {
    const options = Object.values(def.entries as Record<string, string>).sort();
    const spellings = [...restSpellings(enumDesc).toName.keys()].sort();
    if (options.join() !== spellings.join()) return [`${path}: zod [${options}], proto [${spellings}]`];
  }
  return [];
}

describe("the domain's zod schemas and the proto messages", () => {
  it.each([
    ["OperatorProfile", operatorProfileSchema, OperatorProfileSchema],
    ["VerificationRecord", verificationRecordSchema, VerificationRecordSchema],
  ] as [string, z.ZodType, DescMessage][])(
    "%s: the same fields, nesting and enum spellings",
    (_, schema, desc) => {
      expect(mismatches(schema, desc, "")).toEqual([]);
    },
  );

  it("notices a field the message lacks", () => {
    const def = defOf(verificationRecordSchema);
    const widened = { def: { ...def, shape: { ...(def.shape as object), colour: defOf(def.shape) } } };
    expect(mismatches(widened, VerificationRecordSchema, "")).toEqual([
      ".colour: not in petri.marketplace.v1.VerificationRecord",
    ]);
  });
});
