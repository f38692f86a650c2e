/**
 * ZONE_OF_INHIBITION: disk diffusion (CLSI M02 as summarised in docs/assay-notes.md 7.1:
 * Mueller-Hinton agar, 35 ± 2 °C, 16-18 h, diameters in mm), read by imaging.
 *
 * Defaults: Mueller-Hinton agar, 6 mm disks (docs/intake-model.md), 35 °C and 18 h (M02), and when no
 * loading is stated one 30 µg disk, a common content of standard antibiotic disks (an assumption
 * the notes say out loud; the requester should state the loading).
 */
import { z } from "zod";

import { PLAN_LIMITS, type ZonePlan } from "../../plan.js";
import { readBsl, readReplicates, readTitle, type CommonFields } from "../common.js";
import type { PlanContext } from "../context.js";
import {
  boundedList,
  celsius,
  hours,
  optional,
  optionalText,
  parseWith,
  positiveNumber,
  requiredText,
} from "../fields.js";
import { distinctDescending, readable } from "../series.js";
import { massFactor, scaled } from "../units.js";
import { parseOrganism } from "./organisms.js";

const zoneSchema = z.object({
  zone_of_inhibition: z.object({
    organism: requiredText(),
    strain: optionalText(),
    medium: optionalText(),
    compound_name: requiredText(),
    disk_loading: optional(
      boundedList(
        z.object({ amount: positiveNumber(), unit: requiredText(32) }),
        PLAN_LIMITS.concentrations,
        "disk loadings",
      ),
    ),
    disk_diameter_mm: optional(positiveNumber().max(100)),
    positive_control: optionalText(),
    incubation_hours: optional(hours()),
    incubation_temperature_c: optional(celsius()),
  }),
});

export function buildZonePlan(
  intake: Record<string, unknown>,
  common: CommonFields,
  ctx: PlanContext,
): ZonePlan | undefined {
  const parsed = parseWith(zoneSchema, intake);
  if ("problems" in parsed) {
    ctx.problems.push(...parsed.problems);
    return undefined;
  }
  const zone = parsed.data.zone_of_inhibition;
  const organism = zone.strain ? { name: zone.organism, strain: zone.strain } : parseOrganism(zone.organism);

  const loadings: number[] = [];
  (zone.disk_loading ?? []).forEach((loading, index) => {
    const factor = massFactor(loading.unit);
    const value = factor === null ? null : scaled(loading.amount, factor);
    if (factor === null) {
      ctx.problem(
        `zone_of_inhibition.disk_loading[${index}].unit`,
        `"${loading.unit}" is not a mass: disk loadings are planned in µg per disk (ng, µg, mg are converted)`,
      );
    } else if (value === null) {
      ctx.problem(`zone_of_inhibition.disk_loading[${index}].amount`, "is out of range once converted to µg");
    } else {
      loadings.push(readable(value));
    }
  });
  const distinct = distinctDescending(loadings);
  if (distinct.duplicates > 0) ctx.note(`${distinct.duplicates} repeated disk loading(s) counted once.`);

  ctx.key(true); // organism
  ctx.key(true); // compound
  const diskLoadings = ctx.pick(
    distinct.values.length > 0 ? distinct.values : undefined,
    [30],
    "No disk loading stated: one 30 µg disk per replicate assumed; state zone_of_inhibition.disk_loading.",
  );
  const medium = ctx.pick(
    zone.medium,
    "Mueller-Hinton agar",
    "Medium not stated: Mueller-Hinton agar assumed (CLSI M02).",
  );
  const diskDiameter = ctx.pick(zone.disk_diameter_mm, 6, "Disk diameter not stated: 6 mm assumed.");
  const incubationHours = ctx.pick(
    zone.incubation_hours,
    18,
    "Incubation time not stated: 18 h assumed (CLSI M02: 16-18 h).",
  );
  const temperature = ctx.pick(
    zone.incubation_temperature_c,
    35,
    "Incubation temperature not stated: 35 °C assumed (CLSI M02: 35 ± 2 °C).",
  );
  const replicates = readReplicates(common, ctx);
  const bsl = readBsl(common, ctx);
  if (ctx.problems.length > 0) return undefined;

  const title = readTitle(common, ctx, `Disk diffusion of ${zone.compound_name} on ${organism.name}`);
  return {
    experiment_type: "ZONE_OF_INHIBITION",
    title,
    replicates,
    bsl,
    plate_format: ctx.preferredPlate(),
    detection_method: "imaging",
    sample_count: diskLoadings.length * replicates.technical * replicates.biological,
    organisms: [organism],
    agents: [{ name: zone.compound_name, disk_loading_ug: diskLoadings }],
    medium,
    disk_diameter_mm: diskDiameter,
    incubation_hours: incubationHours,
    temperature_c: temperature,
    positive_control: zone.positive_control ?? null,
  };
}
