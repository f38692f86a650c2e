/**
 * zod schemas of the common request sections (docs/intake-model.md, docs/api.md).
 *
 * Conventions for every schema in this folder:
 * - Objects are strict: an unknown field is rejected as `invalid_value` (decision, for the top
 *   level and for every nested section alike; free-form maps such as
 *   `protocol.template_parameters` are the only exception).
 * - Required fields are wrapped in `req()` (see ../required.ts): optional at run time so drafts
 *   parse, required in the TypeScript type of the submitted form.
 * - Fields that have a second spelling elsewhere (budget, turnaround, replicates, …) carry no zod
 *   default here; the defaults are applied after the spellings are merged (../normalize.ts).
 * - Messages are predicates ("must be …"); the validator puts the field's name in front.
 * - Bounds the model does not state are input-hygiene limits of ours (string lengths, list sizes),
 *   chosen generously and named `LIMITS` below.
 */
import { z } from "zod";

import { bslNumber } from "../bsl.js";
import { casChecksumOk, normalizeCas } from "../cas.js";
import { req } from "../required.js";
// The request's enumerations are the generated vocabulary's (proto request_vocabulary, D348).
import {
  BUDGET_FLEXIBILITIES,
  CONDITION_OPERATORS,
  PACKAGE_LEVELS,
  PREFERRED_CONTACTS,
  PRIOR_WORK_TYPES,
  PRIVACY_LEVELS,
  PROCESSED_OUTPUTS,
  PROTOCOL_TYPES,
  RAW_DATA_FORMATS,
  STATISTICAL_TESTS,
  SUBMITTER_TYPES,
  TURNAROUND_PRIORITIES,
  WEBHOOK_EVENTS,
} from "@petri/contracts/vocabulary";

/** Our own size limits where docs/intake-model.md states none. */
export const LIMITS = {
  shortText: 200,
  mediumText: 1000,
  longText: 5000,
  unit: 32,
  listItems: 100,
  replicates: 100,
} as const;

// ---------------------------------------------------------------------------------------------
// Enumerations
// ---------------------------------------------------------------------------------------------

export {
  CONDITION_OPERATORS,
  PACKAGE_LEVELS,
  PREFERRED_CONTACTS,
  PRIOR_WORK_TYPES,
  PROCESSED_OUTPUTS,
  PROTOCOL_TYPES,
  RAW_DATA_FORMATS,
  STATISTICAL_TESTS,
  SUBMITTER_TYPES,
};
export const PHOTO_DOCUMENTATION = ["none", "key_steps", "all_steps"] as const;

export type SubmitterType = (typeof SUBMITTER_TYPES)[number];
export type PackageLevel = (typeof PACKAGE_LEVELS)[number];
export type RawDataFormat = (typeof RAW_DATA_FORMATS)[number];
export type ProcessedOutput = (typeof PROCESSED_OUTPUTS)[number];
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];
export type StatisticalTest = (typeof STATISTICAL_TESTS)[number];
export type ProtocolType = (typeof PROTOCOL_TYPES)[number];

// ---------------------------------------------------------------------------------------------
// Building blocks
// ---------------------------------------------------------------------------------------------

/** A non-empty, trimmed string of at most `max` characters (names, identifiers). */
export const name = (max: number = LIMITS.shortText) => z.string().trim().min(1).max(max);
/** Free text, trimmed; may be empty. */
export const text = (max: number = LIMITS.mediumText) => z.string().trim().max(max);
export const unit = () => z.string().trim().min(1).max(LIMITS.unit);
export const list = <T extends z.ZodType>(item: T, max: number = LIMITS.listItems) => z.array(item).max(max);

/** {value, unit}: an amount or a concentration. */
export const quantitySchema = z.strictObject({
  value: req(z.number().nonnegative()),
  unit: req(unit()),
});

/** Incubation and process temperatures in °C: bounded to a freezer-to-boiling range (our limit). */
export const celsius = () => z.number().min(-80).max(100);

/** USD amounts carry at most two decimals (money is stored in cents). */
export const usd = (min: number, max: number) =>
  z
    .number()
    .min(min)
    .max(max)
    .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, {
      error: "must have at most two decimal places (USD cents)",
    });

/** IUPAC nucleotide codes; whitespace removed and upper-cased before the check. */
export const nucleotideSequence = () =>
  z
    .string()
    .trim()
    .toUpperCase()
    .overwrite((s) => s.replace(/\s+/g, ""))
    .min(1)
    .max(10_000)
    .regex(/^[ATCGRYSWKMBDHVN]+$/, {
      error: "must use IUPAC nucleotide codes only (A C G T R Y S W K M B D H V N)",
    });

export const casNumber = () =>
  z
    .string()
    .overwrite((s) => normalizeCas(s) ?? s.trim())
    .regex(/^\d{2,7}-\d{2}-\d$/, { error: "must be a CAS Registry Number such as 64-17-5" })
    .refine(casChecksumOk, { error: "has a wrong check digit (not a valid CAS Registry Number)" });

export const httpsUrl = () =>
  z
    .string()
    .trim()
    .max(2048)
    .refine(
      (value) => {
        try {
          const url = new URL(value);
          return url.protocol === "https:" && url.hostname !== "";
        } catch {
          return false;
        }
      },
      { error: "must be an absolute https:// URL" },
    );

const DOI = /^10\.\d{4,9}\/\S+$/;

/** Strips "doi:" and doi.org prefixes so a DOI is stored bare (one stored form). */
export function bareDoi(value: string): string {
  return value
    .trim()
    .replace(/^doi:\s*/i, "")
    .replace(/^https?:\/\/(dx\.)?doi\.org\//i, "");
}

// ---------------------------------------------------------------------------------------------
// Common sections
// ---------------------------------------------------------------------------------------------

export const metadataSchema = z.strictObject({
  intake_id: z.uuid({ error: "must be a UUID" }).optional(),
  submitter_type: z.enum(SUBMITTER_TYPES).default("human"),
  agent_identifier: name().optional(),
  parent_intake_id: z.uuid({ error: "must be a UUID" }).optional(),
  tags: z.array(name(50)).max(10).default([]),
  language: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, { error: "must be a language tag such as en or pt-BR" })
    .default("en"),
});

export const titleSchema = z.string().trim().min(5).max(200);

export const priorWorkSchema = z
  .strictObject({
    type: req(z.enum(PRIOR_WORK_TYPES)),
    identifier: req(name(500)),
    relevance: text(500).optional(),
  })
  .transform((item) =>
    item.type === "doi" && item.identifier ? { ...item, identifier: bareDoi(item.identifier) } : item,
  )
  .superRefine((item, ctx) => {
    const id = item.identifier;
    if (id === undefined || item.type === undefined) return;
    const ok =
      item.type === "doi"
        ? DOI.test(id)
        : item.type === "pmid"
          ? /^\d{1,9}$/.test(id)
          : item.type === "url"
            ? /^https?:\/\/\S+$/i.test(id)
            : true;
    if (!ok) {
      const expected =
        item.type === "doi"
          ? "a DOI such as 10.1000/xyz123"
          : item.type === "pmid"
            ? "a PubMed id (digits)"
            : "an http(s) URL";
      ctx.addIssue({
        code: "custom",
        path: ["identifier"],
        message: `must be ${expected} for type ${item.type}`,
      });
    }
  });

export const hypothesisSchema = z.strictObject({
  statement: req(z.string().trim().min(10).max(1000)),
  null_hypothesis: text(1000).optional(),
  /** `why_interesting` is the second spelling of `rationale`; stored as `rationale`. */
  rationale: text(2000).optional(),
  why_interesting: text(2000).optional(),
  prior_work: list(priorWorkSchema, 50).default([]),
});

export const bslSchema = z
  .union([z.string(), z.number()], { error: "must be a biosafety level such as BSL-1 or BSL-2" })
  .refine((value) => bslNumber(value) !== null, {
    error: "must be a biosafety level such as BSL-1 or BSL-2",
  });

export const complianceSchema = z.strictObject({
  /** Any spelling of BSL1…BSL4; normalised to "BSL-1" style (../bsl.ts). Default BSL-1. */
  bsl: bslSchema.optional(),
  human_derived_material: z.boolean().default(false),
  animal_derived_material: z.boolean().default(false),
  hazardous_chemicals: z.boolean().default(false),
  sds_attached: z.boolean().default(false),
  export_control_or_sanctions_risk: z.boolean().default(false),
  hazard_notes: text(1000).optional(),
});

export const budgetMaxUsd = () => usd(50, 100_000);
export const turnaroundDays = () => z.int().min(1).max(180);

export const turnaroundBudgetSchema = z.strictObject({
  budget_max_usd: budgetMaxUsd().optional(),
  desired_turnaround_days: turnaroundDays().optional(),
  /** Second spelling of desired_turnaround_days (docs/api.md, convert-to-experiment). */
  max_days: turnaroundDays().optional(),
  hard_deadline: z.iso.date({ error: "must be a date in YYYY-MM-DD form" }).optional(),
  budget_flexibility: z.enum(BUDGET_FLEXIBILITIES).optional(),
  priority: z.enum(TURNAROUND_PRIORITIES).optional(),
});

/** docs/api.md spelling: constraints {budget_max_usd, budget_flexibility} (turnaround fields too). */
export const constraintsSchema = z.strictObject({
  budget_max_usd: budgetMaxUsd().optional(),
  budget_flexibility: z.enum(BUDGET_FLEXIBILITIES).optional(),
  turnaround_days: turnaroundDays().optional(),
  turnaround_priority: z.enum(TURNAROUND_PRIORITIES).optional(),
});

export const deliverablesSchema = z.strictObject({
  minimum_package_level: z.enum(PACKAGE_LEVELS).default("L1_BASIC_QC"),
  raw_data_formats: z
    .array(z.enum(RAW_DATA_FORMATS))
    .max(RAW_DATA_FORMATS.length * 2)
    .default(["CSV"]),
  required_processed_outputs: z
    .array(z.enum(PROCESSED_OUTPUTS))
    .max(PROCESSED_OUTPUTS.length * 2)
    .default([]),
  photo_documentation: z.enum(PHOTO_DOCUMENTATION).default("key_steps"),
  lab_notebook_scan: z.boolean().default(true),
});

export const privacySchema = z.enum(PRIVACY_LEVELS);

export const materialSchema = z.strictObject({
  name: req(name(200)),
  specification: text(500).optional(),
  quantity: quantitySchema.optional(),
  cas_number: casNumber().optional(),
  storage_requirements: text(500).optional(),
  hazardous: z.boolean().default(false),
  provided_by_requester: z.boolean().optional(),
});

export const materialsSchema = list(materialSchema);

/** Both spellings accepted: technical / technical_replicates, biological / biological_replicates. */
export const replicatesSchema = z.strictObject({
  technical: z.int().min(1).max(LIMITS.replicates).optional(),
  technical_replicates: z.int().min(1).max(LIMITS.replicates).optional(),
  biological: z.int().min(0).max(LIMITS.replicates).optional(),
  biological_replicates: z.int().min(0).max(LIMITS.replicates).optional(),
});

export const rangeThresholdSchema = z.strictObject({ min: req(z.number()), max: req(z.number()) });

export const successConditionSchema = z
  .strictObject({
    metric: req(name(200)),
    operator: req(z.enum(CONDITION_OPERATORS)),
    threshold: req(
      z.union([z.number(), rangeThresholdSchema], {
        error: "must be a number, or an object {min, max} for between and not_between",
      }),
    ),
    unit: text(LIMITS.unit).optional(),
    description: text(1000).optional(),
  })
  .superRefine((condition, ctx) => {
    const { operator, threshold } = condition;
    if (operator === undefined || threshold === undefined) return;
    const ranged = operator === "between" || operator === "not_between";
    if (ranged && typeof threshold === "number") {
      ctx.addIssue({
        code: "custom",
        path: ["threshold"],
        message: `must be an object {min, max} for operator ${operator}`,
      });
    } else if (!ranged && typeof threshold !== "number") {
      ctx.addIssue({
        code: "custom",
        path: ["threshold"],
        message: `must be a number for operator ${operator}`,
      });
    } else if (typeof threshold !== "number" && threshold.min !== undefined && threshold.max !== undefined) {
      if (threshold.min > threshold.max) {
        ctx.addIssue({ code: "custom", path: ["threshold"], message: "must have min at most max" });
      }
    }
  });

export const failureConditionSchema = z.strictObject({
  condition: req(name(1000)),
  interpretation: text(1000).optional(),
});

export const statisticalRequirementsSchema = z.strictObject({
  significance_level: z.number().gt(0).lt(1).default(0.05),
  statistical_test: z.enum(STATISTICAL_TESTS).optional(),
  /**
   * The name other marketplaces' intake schemas give statistical_test; their clients send it.
   * Stored as statistical_test, with a warning (../normalize.ts).
   */
  test: z.enum(STATISTICAL_TESTS).optional(),
  power: z.number().gt(0).lt(1).optional(),
});

export const acceptanceCriteriaSchema = z.strictObject({
  success_conditions: list(successConditionSchema, 50).default([]),
  failure_conditions: list(failureConditionSchema, 50).default([]),
  statistical_requirements: statisticalRequirementsSchema.optional(),
});

export const communicationPreferencesSchema = z.strictObject({
  webhook_url: httpsUrl().optional(),
  notification_events: z
    .array(z.enum(WEBHOOK_EVENTS))
    .max(WEBHOOK_EVENTS.length * 2)
    .optional(),
  preferred_contact: z.enum(PREFERRED_CONTACTS).optional(),
});
