/**
 * Until the domain validates the typed messages (decisions.md D335, next step), its zod
 * schemas and the proto messages describe the same models twice: this test fails when they name
 * different fields, nest differently, or spell an enum differently.
 */
import type { DescMessage } from "@bufbuild/protobuf";
import { OperatorProfileSchema, VerificationRecordSchema } from "@petri/contracts/marketplace";
import { zodMessageMismatches as mismatches } from "@petri/testkit";
import { describe, expect, it } from "vitest";
import type { z } from "zod";

import { operatorProfileSchema } from "./profile.js";
import { verificationRecordSchema } from "./verification.js";

const defOf = (schema: unknown) => (schema as { def: { shape: object } }).def;

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
