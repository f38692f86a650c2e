/**
 * The experiment request (intake) model as the OpenAPI document describes it: the request,
 * its protocol, acceptance criteria and type sections, with every accepted second spelling.
 *
 * The experiments service is the single source of truth for this model: it validates every
 * field, normalises the equivalent spellings and reports errors with their request paths and
 * the validation codes (missing_required, invalid_value, invalid_experiment_type,
 * safety_violation). So the gateway only checks that a body is a JSON object (and the body
 * size), passes it on exactly as sent, and publishes the model below for clients: the
 * runtime schema accepts any object, the document shows the model.
 */
import { z } from "@hono/zod-openapi";
import { d, flag, list, obj, quantity, text } from "./experiment-request-builders.js";
import { TYPE_SECTIONS, customProtocol } from "./experiment-request-types.js";
import {
  BUDGET_FLEXIBILITIES,
  EXPERIMENT_TYPES,
  PRIVACY_LEVELS,
  TURNAROUND_PRIORITIES,
  WEBHOOK_EVENTS,
} from "@petri/contracts/vocabulary";

/**
 * Every spelling the service reads as a biosafety level (its domain's bsl.ts): BSL1, BSL-1,
 * bsl 1, BSL_2, "2" or 2. Levels 3 and 4 are recognised so that they can be refused.
 */
const BSL_SPELLING = /^\s*(?:[Bb][Ss][Ll][\s_-]*)?[1-4]\s*$/;

const STATISTICAL_TESTS = ["t_test", "anova", "mann_whitney", "chi_square", "fisher_exact"] as const;

const metadata = obj(
  {
    intake_id: d.uuid().describe("The client's id for this intake (uuid)"),
    submitter_type: d.enum(["human", "ai_agent", "automated_pipeline"]).default("human"),
    agent_identifier: text("Which agent submitted it"),
    parent_intake_id: d.uuid().describe("The intake this one derives from"),
    tags: list(d.string().max(50), "At most 10 tags of at most 50 characters", { max: 10 }),
    language: d.string().default("en"),
  },
  "Who submitted the request and how to find it again",
);

const hypothesis = obj(
  {
    statement: text("The testable claim: 10 to 1000 characters", 1000, 10),
    null_hypothesis: text("What is true if the claim is not (at most 1000 characters)", 1000),
    rationale: text("Why it is worth testing (at most 2000 characters)", 2000),
    why_interesting: text("Second spelling of rationale", 2000),
    prior_work: list(
      obj(
        {
          type: d.enum(["doi", "pmid", "url", "experiment"]),
          identifier: d.string(),
          relevance: text("At most 500 characters", 500),
        },
        "A reference",
      ),
      "Prior work",
    ),
  },
  "The hypothesis under test",
  ["statement"],
);

const compliance = obj(
  {
    bsl: d
      .union([d.string().regex(BSL_SPELLING), d.int().min(1).max(4)])
      .default("BSL-1")
      .describe(
        "Biosafety level in any spelling (BSL1, BSL-1, bsl 1), stored as BSL-1. BSL-3 and above is flagged bsl_level_exceeded and rejected (403 safety_rejected).",
      ),
    human_derived_material: flag(
      "Human-derived material (flags human_subjects; BSL-2 with it needs staff review)",
    ),
    animal_derived_material: flag("Animal-derived material"),
    hazardous_chemicals: flag("Hazardous chemicals are involved"),
    sds_attached: flag("Safety data sheets are attached"),
    export_control_or_sanctions_risk: flag("Export-control or sanctions risk"),
    hazard_notes: text("At most 1000 characters", 1000),
  },
  "Biosafety and compliance declarations",
);

const turnaroundBudget = obj(
  {
    budget_max_usd: d.number().min(50).max(100_000).describe("Budget cap in USD (50 to 100000)"),
    desired_turnaround_days: d.int().min(1).max(180),
    max_days: d.int().min(1).max(180).describe("Second spelling of desired_turnaround_days"),
    hard_deadline: d.iso.date(),
    budget_flexibility: d.enum(BUDGET_FLEXIBILITIES).default("strict"),
    priority: d
      .enum(TURNAROUND_PRIORITIES)
      .default("standard")
      .describe("standard; expedited (about +20%); urgent (about +50%)"),
  },
  "Budget and turnaround (constraints.budget_max_usd, turnaround_days and turnaround_priority are equivalent spellings)",
);

const deliverables = obj(
  {
    minimum_package_level: d.enum(["L0_RAW_ONLY", "L1_BASIC_QC", "L2_INTERPRETATION"]).default("L1_BASIC_QC"),
    raw_data_formats: list(
      d.enum([
        "CSV",
        "XLSX",
        "AB1",
        "SEQ",
        "FASTQ",
        "INSTRUMENT_EXPORT",
        "IMAGE_FILES",
        "PDF_REPORT",
        "JSON",
      ]),
      "Raw data formats (default [CSV])",
    ),
    required_processed_outputs: list(
      d.string(),
      "Processed outputs valid for the type, e.g. MIC_VALUE, IC50_CURVE_FIT, CT_TABLE, QC_SUMMARY",
    ),
    photo_documentation: d.enum(["none", "key_steps", "all_steps"]).default("key_steps"),
    lab_notebook_scan: d.boolean().default(true),
  },
  "What the lab delivers",
);

const material = obj(
  {
    name: text("Required, at most 200 characters", 200),
    specification: text("At most 500 characters", 500),
    quantity: quantity("Amount"),
    cas_number: d
      .string()
      .regex(/^\d+-\d+-\d$/)
      .describe("CAS registry number (digits-digits-digit)"),
    storage_requirements: d.string(),
    hazardous: flag("Hazardous material"),
    provided_by_requester: d
      .boolean()
      .describe("Shipped by the requester after a lab accepts the job; otherwise sourced by the lab"),
  },
  "A material",
  ["name"],
);

const replicates = obj(
  {
    technical: d.int().default(3).describe("Technical replicates (3 or more recommended)"),
    technical_replicates: d.int().describe("Second spelling of technical"),
    biological: d.int().default(1).describe("Biological replicates (3 recommended)"),
    biological_replicates: d.int().describe("Second spelling of biological"),
  },
  "Replicates (fewer than recommended is the warning low_replicates)",
);

const protocol = obj(
  {
    type: d.enum(["standard_template", "custom", "protocol_design_requested"]),
    template_id: d
      .string()
      .describe("With standard_template, e.g. mic-broth-microdilution-v1 (GET /templates)"),
    template_parameters: d
      .record(d.string(), d.unknown())
      .describe("Checked against the template's parameters"),
    custom_protocol: customProtocol,
    protocol_design_brief: d
      .string()
      .describe(
        "With protocol_design_requested: the goal; staff propose a protocol, usually within 48 hours",
      ),
    materials: list(material, "Second place of the top-level materials_provided"),
    replicates: replicates.describe("Second place of the top-level replicates"),
  },
  "How the experiment is run",
);

const successCondition = obj(
  {
    metric: d.string(),
    operator: d.enum(["gt", "gte", "lt", "lte", "eq", "neq", "between", "not_between"]),
    threshold: d
      .union([d.number(), obj({ min: d.number(), max: d.number() }, "For between and not_between")])
      .describe("A number, or {min, max} for between and not_between"),
    unit: d.string(),
    description: d.string(),
  },
  "A success condition",
);

const acceptanceCriteria = obj(
  {
    success_conditions: list(successCondition, "Conditions the results must meet"),
    failure_conditions: list(
      obj({ condition: d.string(), interpretation: d.string() }, "A failure"),
      "Failures",
    ),
    statistical_requirements: obj(
      {
        significance_level: d.number().min(0).max(1).default(0.05),
        statistical_test: d.enum(STATISTICAL_TESTS),
        test: d
          .enum(STATISTICAL_TESTS)
          .describe(
            "Accepted alias of statistical_test (the name other marketplaces' intake schemas use): stored as statistical_test with the warning request.alias_normalised; sent with a different statistical_test it is 422 invalid_value",
          ),
        power: d.number(),
      },
      "Statistics",
    ),
  },
  "What counts as success: staff resolve disputes against these",
);

const communicationPreferences = obj(
  {
    webhook_url: d.url({ protocol: /^https$/ }).describe("HTTPS only"),
    notification_events: list(d.enum(WEBHOOK_EVENTS), "Events to deliver"),
    preferred_contact: d.enum(["email", "webhook", "platform_only"]),
  },
  "Webhook and contact preferences",
);

export const ExperimentRequestDocumentation = obj(
  {
    experiment_type: d
      .enum(EXPERIMENT_TYPES)
      .describe(
        "One of the 8 types; any other value is invalid_experiment_type. The type's section (below) is required.",
      ),
    title: text("5 to 200 characters", 200, 5),
    metadata,
    hypothesis,
    compliance,
    privacy: d
      .enum(PRIVACY_LEVELS)
      .default("open")
      .describe("open (no premium), delayed_6mo (~+10%), delayed_12mo (~+15%), private (~+25-50%)"),
    turnaround_budget: turnaroundBudget,
    constraints: obj(
      {
        budget_max_usd: d.number().min(50).max(100_000),
        budget_flexibility: d.enum(BUDGET_FLEXIBILITIES),
        turnaround_days: d.int().min(1).max(180),
        turnaround_priority: d.enum(TURNAROUND_PRIORITIES),
      },
      "Second spelling of the budget and turnaround (the same as turnaround_budget)",
    ),
    turnaround_days: d.int().describe("Second spelling of turnaround_budget.desired_turnaround_days"),
    turnaround_priority: d
      .enum(TURNAROUND_PRIORITIES)
      .describe("Second spelling of turnaround_budget.priority"),
    deliverables,
    protocol,
    materials_provided: list(material, "Materials the requester provides"),
    replicates,
    acceptance_criteria: acceptanceCriteria,
    communication_preferences: communicationPreferences,
    ...TYPE_SECTIONS,
  },
  "An experiment request. The experiments service validates it and reports each problem with its path (POST /validate); this schema documents the model. The section of the request's experiment_type is required: sanger, qpcr, cell_viability, enzyme_inhibition, microbial_growth, mic_mbc, zone_of_inhibition or custom_protocol (CUSTOM, also as protocol.custom_protocol).",
  ["experiment_type", "title", "hypothesis"],
);

/**
 * JSON Schema of the documentation schema, tidied for readers: no $schema, no safe-integer
 * bounds zod adds to every integer, and no generated regex where a format already says it
 * (date, uuid).
 */
export function documentationOf(schema: z.ZodType): Record<string, unknown> {
  const tidy = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(tidy);
    if (node === null || typeof node !== "object") return node;
    const result: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if (key === "$schema") continue;
      if ((key === "minimum" || key === "maximum") && Math.abs(value as number) === Number.MAX_SAFE_INTEGER)
        continue;
      if (key === "pattern" && "format" in (node as object)) continue;
      result[key] = tidy(value);
    }
    return result;
  };
  return tidy(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" })) as Record<string, unknown>;
}

const REQUEST_DOCUMENTATION = documentationOf(ExperimentRequestDocumentation);

/**
 * POST /experiments and POST /validate: any JSON object (the service validates it), described
 * as the request model. Its top-level required fields are documented, not enforced here.
 */
export const ExperimentRequestSchema = z
  .looseObject({})
  .openapi("ExperimentRequest", REQUEST_DOCUMENTATION as object);

/** POST /estimate: the same model, every field optional (an estimate takes a partial request). */
const { required: _required, ...PARTIAL_DOCUMENTATION } = REQUEST_DOCUMENTATION;
export const PartialExperimentRequestSchema = z.looseObject({}).openapi("PartialExperimentRequest", {
  ...PARTIAL_DOCUMENTATION,
  description:
    "A possibly partial experiment request: what is missing is estimated from the type's defaults (or, without a type, across types).",
} as object);

/** The documented schema of one top-level request field (for bodies that carry a part of the model). */
export function requestFieldDocumentation(field: string, description?: string): Record<string, unknown> {
  const properties = REQUEST_DOCUMENTATION.properties as Record<string, Record<string, unknown>>;
  const schema = properties[field];
  if (!schema) throw new Error(`the request model has no field ${field}`);
  return description ? { ...schema, description } : schema;
}
