/**
 * What the language model must answer when it reads an intake, twice over: a JSON Schema for the
 * server's structured output (strict mode: every key required, null for none, only keywords every
 * OpenAI-compatible server enforces), and the zod schema the reply is checked against, with the
 * bounds the public Interpretation keeps (the rules interpreter's PLAN_LIMITS, finite numbers,
 * single-line texts). Pure.
 */
import { z } from "zod";
import {
  CONCENTRATION_UNITS,
  DETECTION_METHODS as VOCABULARY_DETECTION_METHODS,
  EXPERIMENT_TYPES,
} from "@petri/contracts/vocabulary";
import { type DetectionMethod, type Interpretation, PLAN_LIMITS } from "../domain/plan.js";

/** petri.cloudlabs.v1.DetectionMethod's spellings, the generated vocabulary's (D318). */
export const DETECTION_METHODS = VOCABULARY_DETECTION_METHODS satisfies readonly DetectionMethod[];

// Fails to compile when plan.ts gains a detection method the enum lacks.
const _everyDetectionMethod: readonly (typeof DETECTION_METHODS)[number][] = [] as DetectionMethod[];

/** The units an Interpretation uses (the rules interpreter converts every intake to these). */
export const INTERPRETATION_UNITS = CONCENTRATION_UNITS;

/** Technical x biological replicates, each at most 6 (PLAN_LIMITS). */
export const MAX_REPLICATES = PLAN_LIMITS.replicates_technical * PLAN_LIMITS.replicates_biological;
/** As for the rules interpreter: up to 30 days. */
export const MAX_INCUBATION_HOURS = 24 * 30;
/** Far above any dose a plate assay uses; keeps absurd numbers out of the answer. */
export const MAX_CONCENTRATION = 1_000_000;
export const MAX_NOTES = 20;
export const NOTE_MAX_CHARS = 500;

export const INTERPRETATION_SCHEMA_NAME = "intake_interpretation";

/** The reply's shape as sent in response_format. */
const replyShapeSchema = z.object({
  experiment_type: z.enum(EXPERIMENT_TYPES).describe("The experiment type the intake states."),
  parameters: z.object({
    organisms: z
      .array(z.object({ name: z.string(), strain: z.string().nullable() }))
      .describe("The microbes tested (MIC, zone of inhibition, growth); empty for other types."),
    compounds: z
      .array(
        z.object({
          name: z.string(),
          concentrations: z.array(z.number()).describe("Highest first, in `unit`."),
          unit: z.enum(INTERPRETATION_UNITS),
        }),
      )
      .describe("What is dosed, with its concentrations; empty when nothing is."),
    // z.int() would add safe-integer bounds, keywords some strict servers refuse.
    replicates: z.number().describe("A whole number: technical times biological replicates."),
    incubation_hours: z.number().nullable().describe("Incubation or exposure time; null when none."),
    detection_method: z.enum(DETECTION_METHODS).nullable(),
  }),
  confidence: z
    .number()
    .describe("0 to 1: the share of key parameters the intake states rather than leaves to defaults."),
  notes: z.array(z.string()).describe("What was defaulted, assumed or left out, in plain words."),
});

/** The JSON Schema of the reply for `response_format: {type: "json_schema"}`. */
export function interpretationJsonSchema(): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(replyShapeSchema) as Record<string, unknown>;
  return schema;
}

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function singleLine(maxChars: number) {
  return z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(maxChars, `must be at most ${maxChars} characters`)
    .refine((text) => !hasControlCharacter(text), "must be one line without control characters");
}

/** Models write micro as "u" or as the Greek mu; the answer always uses the micro sign. */
function normaliseUnit(value: unknown): unknown {
  return typeof value === "string" ? value.trim().replace(/^[uμ]/, "µ") : value;
}

const listOf = <T extends z.ZodType>(item: T, max: number, noun: string) =>
  z.array(item).max(max, `must list at most ${max} ${noun}`);

const interpretationSchema = z.object({
  experiment_type: z.enum(EXPERIMENT_TYPES, {
    error: `must be one of ${EXPERIMENT_TYPES.join(", ")}`,
  }),
  parameters: z.object({
    organisms: listOf(
      z.object({
        name: singleLine(PLAN_LIMITS.text),
        strain: singleLine(PLAN_LIMITS.text).nullable(),
      }),
      PLAN_LIMITS.organisms,
      "organisms",
    ),
    compounds: listOf(
      z.object({
        name: singleLine(PLAN_LIMITS.text),
        concentrations: listOf(
          z.number().positive("must be greater than 0").max(MAX_CONCENTRATION),
          PLAN_LIMITS.concentrations,
          "concentrations",
        ),
        unit: z.preprocess(
          normaliseUnit,
          z.enum(INTERPRETATION_UNITS, { error: `must be one of ${INTERPRETATION_UNITS.join(", ")}` }),
        ),
      }),
      PLAN_LIMITS.compounds,
      "compounds",
    ),
    // After incubation_hours, as the rules interpreter writes it and IntakeInterpretation declares
    // it: zod writes its output in this order, so both readings travel typed (D355).
    incubation_hours: z.number().positive("must be greater than 0").max(MAX_INCUBATION_HOURS).nullable(),
    replicates: z.int("must be a whole number").min(1).max(MAX_REPLICATES),
    detection_method: z
      .enum(DETECTION_METHODS, { error: `must be null or one of ${DETECTION_METHODS.join(", ")}` })
      .nullable(),
  }),
  confidence: z
    .number()
    .min(0, "must be from 0 to 1")
    .max(1, "must be from 0 to 1")
    .transform((value) => Math.round(value * 100) / 100),
  notes: listOf(singleLine(NOTE_MAX_CHARS), MAX_NOTES, "notes"),
});

/** The zod check of a reply; its output is the public Interpretation. */
export function interpretationReplySchema(): z.ZodType<Interpretation> {
  return interpretationSchema;
}

/**
 * What zod cannot see: the intake states its experiment type (the rules interpreter read it), so
 * a reading of another type is a misreading, not an opinion.
 */
export function checkAgainstRules(reply: Interpretation, rules: Interpretation): string[] {
  return reply.experiment_type === rules.experiment_type
    ? []
    : [`experiment_type: the intake states ${rules.experiment_type}; keep it`];
}
