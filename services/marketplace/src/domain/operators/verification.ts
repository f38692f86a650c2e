/**
 * The verification record set by staff (issue 5 item 1; docs/intake-model.md "verification").
 *
 * Staff state what they checked: identity, institutional affiliation, supervisor approval,
 * competency per experiment type, the declared equipment, the maximum BSL and the material
 * approvals. Matching trusts this record, not the operator's own declaration: a capability
 * counts only when it is both declared (profile) and verified (this record); see
 * ./qualification.ts.
 *
 * `isVerificationComplete` is the guard of the pending_verification -> active transition:
 * identity, institution and supervisor approval all true and at least one competency verified.
 */
import { z } from "zod";

import { EXPERIMENT_TYPES } from "@petri/contracts/vocabulary";
import { parseBsl } from "./bsl.js";
import { parseWith } from "./errors.js";
import { normalizeName } from "./job.js";
import type { OperatorProfile } from "./profile.js";
import { type Validation } from "./types.js";

export const verificationRecordSchema = z.strictObject({
  identity_verified: z.boolean(),
  institution_verified: z.boolean(),
  supervisor_approved: z.boolean(),
  competencies_verified: z
    .array(z.enum(EXPERIMENT_TYPES))
    .refine((list) => new Set(list).size === list.length, { message: "must not repeat a type" }),
  /** Staff confirmed the equipment and instruments the profile declares. */
  equipment_verified: z.boolean(),
  /**
   * The equipment and instrument names staff confirmed. When absent, the service records every
   * name the profile declares at verification time (withVerifiedEquipment), so a name the lab
   * adds to its profile later counts only after the next verification.
   */
  verified_equipment: z.array(z.string().trim().min(1).max(200)).max(400).optional(),
  max_bsl: z.unknown().transform((value, ctx) => {
    const level = parseBsl(value);
    if (level === null) {
      ctx.addIssue({ code: "custom", message: "must be BSL-1 or BSL-2", input: value });
      return z.NEVER;
    }
    return level;
  }),
  material_approvals: z.strictObject({
    human_samples: z.boolean().default(false),
    animal_samples: z.boolean().default(false),
    hazardous_chemicals: z.boolean().default(false),
  }),
  notes: z.string().max(5000).optional(),
  last_verification_date: z.iso.date(),
  /** Staff account that verified (optional here; the app layer records the actor). */
  verified_by: z.string().min(1).max(200).optional(),
});

export type VerificationRecord = z.output<typeof verificationRecordSchema>;

export function validateVerificationRecord(input: unknown): Validation<VerificationRecord> {
  return parseWith(verificationRecordSchema, input);
}

/** What still blocks activation (empty when the record is complete). */
export function verificationGaps(record: VerificationRecord): string[] {
  const gaps: string[] = [];
  if (!record.identity_verified) gaps.push("identity is not verified");
  if (!record.institution_verified) gaps.push("institutional affiliation is not verified");
  if (!record.supervisor_approved) gaps.push("supervisor approval is missing");
  if (record.competencies_verified.length === 0) gaps.push("no competency is verified");
  return gaps;
}

export function isVerificationComplete(record: VerificationRecord): boolean {
  return verificationGaps(record).length === 0;
}

/** Every equipment and instrument name a profile declares, normalised, sorted, without repeats. */
export function declaredEquipmentNames(profile: OperatorProfile): string[] {
  const names = new Set([
    ...profile.capabilities.equipment.map(normalizeName),
    ...profile.capabilities.instruments.map((instrument) => normalizeName(instrument.name)),
  ]);
  return [...names].sort();
}

/**
 * The record as stored: with verified equipment, the names staff confirmed, normalised
 * (defaulting to what the profile declares now); without, an empty list.
 */
export function withVerifiedEquipment(
  record: VerificationRecord,
  profile: OperatorProfile,
): VerificationRecord {
  const names = !record.equipment_verified
    ? []
    : record.verified_equipment === undefined
      ? declaredEquipmentNames(profile)
      : [...new Set(record.verified_equipment.map(normalizeName))].sort();
  return { ...record, verified_equipment: names };
}
