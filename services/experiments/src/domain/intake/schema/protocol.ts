/**
 * Protocol (docs/api.md) and the custom protocol (docs/intake-model.md CUSTOM section).
 *
 * The custom protocol is accepted at the top level (`custom_protocol`, intake-model spelling)
 * or inside the protocol (`protocol.custom_protocol`, docs/api.md spelling), with either field
 * spelling: `protocol_title`/`title`, `protocol_version`/`version`. It is stored once, at the
 * top level, with the intake-model field names.
 *
 * Completeness (docs/api.md: "A custom protocol must contain numbered steps, critical parameters,
 * expected outcomes, a materials list and an equipment list"): steps, each step's step_number,
 * action and expected_outcome, and equipment_required are required here (with messages that
 * say which). Critical parameters are required of the protocol, not of every step: clients
 * leave them out of steps that have none worth naming (a plate read, a photograph), so at least
 * one step must carry them and each step without is a warning (../custom-protocol.ts, with the
 * numbering 1..n). The materials list is checked by the validator.
 */
import { z } from "zod";

import { req } from "../required.js";
import type { PathSegment } from "../paths.js";
import { formatPath } from "../paths.js";
import { LIMITS, PROTOCOL_TYPES, list, materialsSchema, name, replicatesSchema, text } from "./common.js";

const stepLabel = (path: readonly PathSegment[]) => {
  const index = path[path.length - 2];
  return typeof index === "number" ? `step ${index + 1}` : "a step";
};

export const DURATION_UNITS = ["seconds", "minutes", "hours", "days"] as const;
export const TEMPERATURE_UNITS = ["C", "F", "K"] as const;

const ABSOLUTE_ZERO = { C: -273.15, F: -459.67, K: 0 } as const;

export const stepDurationSchema = z.strictObject({
  value: req(z.number().positive()),
  unit: req(z.enum(DURATION_UNITS)),
});

export const stepTemperatureSchema = z
  .strictObject({
    value: req(z.number()),
    unit: req(z.enum(TEMPERATURE_UNITS)),
    tolerance: z.number().nonnegative().optional(),
  })
  .superRefine((t, ctx) => {
    if (t.value === undefined || t.unit === undefined) return;
    if (t.value < ABSOLUTE_ZERO[t.unit]) {
      ctx.addIssue({
        code: "custom",
        path: ["value"],
        message: `must not be below absolute zero (${ABSOLUTE_ZERO[t.unit]} ${t.unit})`,
      });
    }
  });

export const customStepSchema = z.strictObject({
  step_number: req(z.int().min(1), {
    message: (p) => `${stepLabel(p)} has no step_number: steps must be numbered 1..n in order`,
  }),
  action: req(name(2000), { message: (p) => `${stepLabel(p)} has no action` }),
  duration: stepDurationSchema.optional(),
  temperature: stepTemperatureSchema.optional(),
  critical_parameters: list(name(500), 50).optional(),
  expected_outcome: req(name(2000), {
    message: (p) => `${stepLabel(p)} has no expected_outcome: say what the step should produce`,
  }),
});

export const equipmentSchema = z.strictObject({
  name: req(name(200)),
  specifications: text(500).optional(),
  required: z.boolean().default(true),
});

export const customProtocolSchema = z.strictObject({
  protocol_title: name(200).optional(),
  /** docs/api.md spelling of protocol_title. */
  title: name(200).optional(),
  protocol_version: name(50).optional(),
  /** docs/api.md spelling of protocol_version. */
  version: name(50).optional(),
  protocol_attached: z.boolean().default(false),
  brief_description: text(LIMITS.longText).optional(),
  steps: req(list(customStepSchema, 200), {
    nonEmpty: true,
    message: (p) => `a custom protocol needs numbered steps (${formatPath(p)})`,
  }),
  equipment_required: req(list(equipmentSchema), {
    nonEmpty: true,
    message: (p) => `a custom protocol needs an equipment list (${formatPath(p)})`,
  }),
  safety_notes: list(name(1000), 50).default([]),
});

export const protocolSchema = z.strictObject({
  type: z.enum(PROTOCOL_TYPES).optional(),
  template_id: name(200).optional(),
  template_parameters: z.record(z.string(), z.unknown()).optional(),
  custom_protocol: customProtocolSchema.optional(),
  protocol_design_brief: name(LIMITS.longText).optional(),
  /** docs/api.md spelling of the top-level materials_provided. */
  materials: materialsSchema.optional(),
  /** docs/api.md spelling of the top-level replicates. */
  replicates: replicatesSchema.optional(),
});
