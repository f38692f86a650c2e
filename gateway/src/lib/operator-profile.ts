/**
 * The operator (lab) profile and the staff verification record as the OpenAPI document
 * describes them (docs/intake-model.md, "Operator (lab) profile").
 *
 * The marketplace service owns both models: it validates every field (strictly: an unknown
 * field is invalid_value at its path) and reports errors with their paths. So, as for the
 * experiment request (lib/experiment-request.ts), the gateway only checks that the body is a
 * JSON object within the size limit and passes it on; the runtime schemas accept any
 * object, the document shows the model.
 */
import { z } from "@hono/zod-openapi";
import {
  CAPACITY_LEVELS,
  EXPERIMENT_TYPES,
  INSTITUTIONAL_APPROVAL_TYPES,
  OPERATOR_TYPES,
} from "@petri/contracts/vocabulary";
import { SUPPORTED_BSL_LEVELS } from "./catalog.js";
import { documentationOf } from "./experiment-request.js";

// Documentation only: turned into JSON Schema once, never used to parse.
const d = z;
const text = (description: string) => d.string().min(1).max(200).describe(description);
const texts = (description: string) => d.array(d.string().min(1).max(200)).max(200).describe(description);
const bsl = d.enum(SUPPORTED_BSL_LEVELS).describe("BSL-1 or BSL-2 (BSL1, bsl-2, 1 are accepted too)");
const usd = (description: string) => d.number().min(0).describe(`${description} (USD, at most two decimals)`);
const perType = (value: z.ZodType, description: string) =>
  d.record(d.enum(EXPERIMENT_TYPES), value).describe(description);

const OperatorProfileDocumentation = d
  .strictObject({
    identity: d
      .strictObject({
        type: d.enum(OPERATOR_TYPES),
        display_name: text("The lab's name as requesters see it").optional(),
        institution: text("The institution it belongs to").optional(),
        region: d
          .string()
          .regex(/^[A-Z]{2}$/)
          .describe("ISO-3166 alpha-2, e.g. DE"),
        timezone: d.string().describe("IANA time zone, e.g. Europe/Berlin (vacations are dates there)"),
      })
      .describe("Who the lab is"),
    capabilities: d
      .strictObject({
        experiment_types: d.array(d.enum(EXPERIMENT_TYPES)).min(1).describe("At least one, no repeats"),
        menu_tags: texts("e.g. mic_broth_microdilution, qpcr_taqman, viability_384_well").optional(),
        instruments: d
          .array(
            d.strictObject({
              name: text("Instrument"),
              manufacturer: text("Manufacturer").optional(),
              model: text("Model").optional(),
              last_calibration: d.iso.date().optional(),
            }),
          )
          .optional(),
        equipment: texts("Equipment names, matched against a job's equipment_required").optional(),
        cell_lines_available: texts("Cell lines on hand").optional(),
        organisms_available: texts("Organisms on hand").optional(),
        custom_protocol_capable: d.boolean().default(false),
      })
      .describe("What the lab can run; counts for matching only where staff verified it"),
    compliance: d
      .strictObject({
        max_bsl: bsl,
        human_samples_approved: d.boolean().default(false),
        animal_samples_approved: d.boolean().default(false),
        hazardous_chemicals_approved: d.boolean().default(false),
        certifications: texts("Certifications held").optional(),
        institutional_approval_type: d.enum(INSTITUTIONAL_APPROVAL_TYPES),
      })
      .describe("Biosafety level and material approvals"),
    commercial_terms: d
      .strictObject({
        pricing: perType(
          d.strictObject({ min_usd: usd("Lowest"), typical_usd: usd("Typical"), max_usd: usd("Highest") }),
          "A price band for every declared experiment type (min <= typical <= max)",
        ),
        turnaround_days: perType(
          d.strictObject({ standard_days: d.int().min(1).max(365), expedited_days: d.int().min(1).max(365) }),
          "Turnaround for every declared experiment type (expedited <= standard)",
        ),
        minimum_order_usd: usd("Smallest order taken").default(0),
      })
      .describe("Prices and turnaround per experiment type"),
    availability: d
      .strictObject({
        current_capacity: d.enum(CAPACITY_LEVELS),
        max_concurrent_jobs: d.int().min(1).max(1000),
        vacations: d
          .array(d.strictObject({ start: d.iso.date(), end: d.iso.date(), note: text("Note").optional() }))
          .optional()
          .describe("Inclusive dates in the lab's time zone; no claims then"),
      })
      .describe("How much the lab can take on"),
  })
  .describe(
    "An operator (lab) profile (docs/intake-model.md). The marketplace service validates it (an unknown field is invalid_value at its path); status, quality metrics and verification are not part of it.",
  );

const VerificationRecordDocumentation = d
  .strictObject({
    identity_verified: d.boolean(),
    institution_verified: d.boolean(),
    supervisor_approved: d.boolean(),
    competencies_verified: d
      .array(d.enum(EXPERIMENT_TYPES))
      .describe("Experiment types whose competency staff assessed (no repeats)"),
    equipment_verified: d.boolean().describe("Staff confirmed the declared equipment and instruments"),
    verified_equipment: d
      .array(d.string().min(1).max(200))
      .max(400)
      .optional()
      .describe(
        "The equipment and instrument names staff confirmed. Absent in a verification: every name the profile declares then. As stored: the confirmed names, normalised (empty unless equipment_verified); a name the lab adds later counts after the next verification",
      ),
    max_bsl: bsl.describe("The verified level; the lab may take the lower of declared and verified"),
    material_approvals: d.strictObject({
      human_samples: d.boolean().default(false),
      animal_samples: d.boolean().default(false),
      hazardous_chemicals: d.boolean().default(false),
    }),
    notes: d.string().max(5000).optional(),
    last_verification_date: d.iso.date(),
    verified_by: d
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe("Who verified; when absent, the staff account that made the verification is recorded"),
  })
  .describe(
    "What staff verified. Identity, institution and supervisor approval all true and at least one competency make the operator active; the marketplace service validates the record.",
  );

/** POST /operator/profile: any JSON object (the marketplace validates it), described as the profile. */
export const OperatorProfileSchema = z
  .looseObject({})
  .openapi("OperatorProfile", documentationOf(OperatorProfileDocumentation) as object);

/** POST /admin/operators/{id}/verify: any JSON object, described as the verification record. */
export const VerificationRecordSchema = z
  .looseObject({})
  .openapi("VerificationRecord", documentationOf(VerificationRecordDocumentation) as object);
