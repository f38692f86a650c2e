/**
 * The operator (lab) profile an operator declares (docs/intake-model.md, "Operator (lab)
 * profile"): identity, capabilities, compliance, commercial terms and availability.
 *
 * Not part of the declared profile: `status` (owned by the status machine, ./status.ts), the
 * quality metrics (computed by Petri, ./quality.ts) and the verification record (set by staff,
 * ./verification.ts).
 *
 * Decisions:
 * - Every object is strict: an unknown field is `invalid_value` at its own path (as D19 does for
 *   experiment requests). Null properties count as absent.
 * - `max_bsl` accepts the same spellings as requests (BSL1, bsl-2, "BSL 1", 1) and is stored as
 *   "BSL-1"/"BSL-2" (D19); BSL-3 and above is `invalid_value` (Petri supports BSL-1 and BSL-2).
 * - Commercial terms are per experiment type and required for every declared type (matching
 *   needs a price band and a turnaround for the job's type); a type that is priced but not
 *   declared is `invalid_value`. Money is USD with cents precision.
 * - Bands must be ordered (min <= typical <= max; expedited <= standard days); vacations have
 *   start <= end, as inclusive calendar dates in the operator's timezone.
 * - Size limits the model does not state are ours (`PROFILE_LIMITS`).
 */
import { z } from "zod";

import {
  CAPACITY_LEVELS,
  EXPERIMENT_TYPES,
  type ExperimentTypeName,
  INSTITUTIONAL_APPROVAL_TYPES,
  OPERATOR_TYPES,
} from "@petri/contracts/vocabulary";
import { parseBsl } from "./bsl.js";
import { parseWith } from "./errors.js";
import { type Validation } from "./types.js";

export const PROFILE_LIMITS = {
  shortText: 200,
  listItems: 200,
  maxConcurrentJobs: 1000,
  maxTurnaroundDays: 365,
  maxPriceUsd: 10_000_000,
} as const;

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const text = z.string().trim().min(1).max(PROFILE_LIMITS.shortText);
const textList = z.array(text).max(PROFILE_LIMITS.listItems);
const isoDate = z.iso.date();
const usd = z
  .number()
  .nonnegative()
  .max(PROFILE_LIMITS.maxPriceUsd)
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, {
    message: "must have at most 2 decimal places",
  });
const days = z.number().int().min(1).max(PROFILE_LIMITS.maxTurnaroundDays);

const bsl = z.unknown().transform((value, ctx) => {
  const level = parseBsl(value);
  if (level === null) {
    ctx.addIssue({
      code: "custom",
      message: "must be BSL-1 or BSL-2 (BSL-3 and above is not supported)",
      input: value,
    });
    return z.NEVER;
  }
  return level;
});

export const identitySchema = z.strictObject({
  type: z.enum(OPERATOR_TYPES),
  display_name: text.optional(),
  institution: text.optional(),
  region: z.string().regex(/^[A-Z]{2}$/, { message: "must be an ISO-3166 alpha-2 code such as US or DE" }),
  timezone: z.string().refine(isTimeZone, { message: "must be an IANA timezone such as Europe/Berlin" }),
});

export const instrumentSchema = z.strictObject({
  name: text,
  manufacturer: text.optional(),
  model: text.optional(),
  last_calibration: isoDate.optional(),
});

export const capabilitiesSchema = z.strictObject({
  experiment_types: z
    .array(z.enum(EXPERIMENT_TYPES))
    .min(1)
    .refine((list) => new Set(list).size === list.length, { message: "must not repeat a type" }),
  menu_tags: textList.default([]),
  instruments: z.array(instrumentSchema).max(PROFILE_LIMITS.listItems).default([]),
  equipment: textList.default([]),
  cell_lines_available: textList.default([]),
  organisms_available: textList.default([]),
  custom_protocol_capable: z.boolean().default(false),
});

export const complianceSchema = z.strictObject({
  max_bsl: bsl,
  human_samples_approved: z.boolean().default(false),
  animal_samples_approved: z.boolean().default(false),
  hazardous_chemicals_approved: z.boolean().default(false),
  certifications: textList.default([]),
  institutional_approval_type: z.enum(INSTITUTIONAL_APPROVAL_TYPES),
});

export const priceBandSchema = z
  .strictObject({ min_usd: usd, typical_usd: usd, max_usd: usd })
  .superRefine((band, ctx) => {
    if (band.typical_usd < band.min_usd)
      ctx.addIssue({ code: "custom", path: ["typical_usd"], message: "must be at least min_usd" });
    if (band.max_usd < band.typical_usd)
      ctx.addIssue({ code: "custom", path: ["max_usd"], message: "must be at least typical_usd" });
  });

export const turnaroundSchema = z
  .strictObject({ standard_days: days, expedited_days: days })
  .superRefine((t, ctx) => {
    if (t.expedited_days > t.standard_days)
      ctx.addIssue({ code: "custom", path: ["expedited_days"], message: "must be at most standard_days" });
  });

export const commercialTermsSchema = z.strictObject({
  pricing: z.record(z.string(), priceBandSchema),
  turnaround_days: z.record(z.string(), turnaroundSchema),
  minimum_order_usd: usd.default(0),
});

export const vacationSchema = z
  .strictObject({ start: isoDate, end: isoDate, note: text.optional() })
  .superRefine((v, ctx) => {
    if (v.end < v.start) ctx.addIssue({ code: "custom", path: ["end"], message: "must not be before start" });
  });

export const availabilitySchema = z.strictObject({
  current_capacity: z.enum(CAPACITY_LEVELS),
  max_concurrent_jobs: z.number().int().min(1).max(PROFILE_LIMITS.maxConcurrentJobs),
  vacations: z.array(vacationSchema).max(PROFILE_LIMITS.listItems).default([]),
});

export const operatorProfileSchema = z
  .strictObject({
    identity: identitySchema,
    capabilities: capabilitiesSchema,
    compliance: complianceSchema,
    commercial_terms: commercialTermsSchema,
    availability: availabilitySchema,
  })
  .superRefine((profile, ctx) => {
    // Zod may run this refinement on a partly invalid profile: check only what parsed.
    const types: unknown = profile.capabilities?.experiment_types;
    if (!Array.isArray(types) || types.length === 0) return;
    const declared = new Set<string>(types.filter((t): t is string => typeof t === "string"));
    const known = new Set<string>(EXPERIMENT_TYPES);
    for (const section of ["pricing", "turnaround_days"] as const) {
      const map: unknown = profile.commercial_terms?.[section];
      if (typeof map !== "object" || map === null) continue;
      for (const key of Object.keys(map)) {
        if (!known.has(key) || !declared.has(key)) {
          ctx.addIssue({
            code: "custom",
            path: ["commercial_terms", section, key],
            message: known.has(key)
              ? "is not one of capabilities.experiment_types"
              : "is not a known experiment type",
            input: (map as Record<string, unknown>)[key],
          });
        }
      }
      for (const type of declared) {
        if (!Object.hasOwn(map, type)) {
          // `input: undefined` marks it as an absent required field (missing_required).
          ctx.addIssue({
            code: "invalid_type",
            expected: "object",
            path: ["commercial_terms", section, type],
            message: `is required for every declared experiment type`,
            input: undefined,
          });
        }
      }
    }
  });

export type OperatorProfile = z.output<typeof operatorProfileSchema>;
export type OperatorProfileInput = z.input<typeof operatorProfileSchema>;
export type PriceBand = z.output<typeof priceBandSchema>;
export type TurnaroundTerms = z.output<typeof turnaroundSchema>;

/** Validates a declared profile; errors carry field paths (`capabilities.experiment_types[1]`). */
export function validateOperatorProfile(input: unknown): Validation<OperatorProfile> {
  return parseWith(operatorProfileSchema, input);
}

export function priceBandFor(profile: OperatorProfile, type: ExperimentTypeName): PriceBand | undefined {
  return Object.hasOwn(profile.commercial_terms.pricing, type)
    ? profile.commercial_terms.pricing[type]
    : undefined;
}

export function turnaroundFor(
  profile: OperatorProfile,
  type: ExperimentTypeName,
): TurnaroundTerms | undefined {
  return Object.hasOwn(profile.commercial_terms.turnaround_days, type)
    ? profile.commercial_terms.turnaround_days[type]
    : undefined;
}

/** The name a lab goes by: its display name, else its institution, else its operator id. */
export function labNameOf(profile: OperatorProfile, operatorId: string): string {
  return profile.identity.display_name ?? profile.identity.institution ?? operatorId;
}
