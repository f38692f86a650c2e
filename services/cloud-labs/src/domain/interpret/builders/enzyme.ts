/**
 * ENZYME_INHIBITION_IC50 (docs/assay-notes.md 7.2).
 *
 * The read-out follows the assay type (colorimetric: absorbance; fluorometric: fluorescence;
 * luminescent: luminescence; coupled: absorbance or fluorescence, whichever the provider has).
 * Radiometric assays are refused: no cloud lab here handles radioactivity, and the plan has no
 * such read-out. Without an assay type, colorimetric (absorbance) is planned unless the provider
 * lacks a reader for it.
 *
 * Defaults: a 10-point half-log series from 100 µM, 30 min incubation at 25 °C. A missing
 * substrate is planned as the lab's standard substrate (at about its Km, per the notes) and said
 * so; the requester should name it.
 */
import { z } from "zod";

import { PLAN_LIMITS, type DetectionMethod, type EnzymePlan } from "../../plan.js";
import { readBsl, readReplicates, readTitle, type CommonFields } from "../common.js";
import type { PlanContext } from "../context.js";
import { boundedList, celsius, optional, optionalText, parseWith, requiredText } from "../fields.js";
import { dilutionSeries, distinctDescending, readable } from "../series.js";
import { molarFactor, scaled } from "../units.js";

const ASSAY_TYPES = [
  "COLORIMETRIC",
  "FLUOROMETRIC",
  "LUMINESCENT",
  "RADIOMETRIC",
  "COUPLED",
  "OTHER",
] as const;
type AssayType = EnzymePlan["assay_type"];

const enzymeSchema = z.object({
  enzyme_inhibition: z.object({
    target_enzyme: requiredText(),
    assay_type: optional(z.enum(ASSAY_TYPES)),
    substrate: optionalText(),
    inhibitor_name: requiredText(),
    inhibitor_concentrations: optional(
      boundedList(
        z.object({ value: z.number().nonnegative(), unit: requiredText(32) }),
        PLAN_LIMITS.concentrations,
        "inhibitor concentrations",
      ),
    ),
    incubation_time_minutes: optional(
      z
        .number()
        .positive()
        .max(60 * 24 * 7),
    ),
    incubation_temperature_c: optional(celsius()),
    detection_wavelength_nm: optional(z.number().positive().max(100_000)),
    positive_control_inhibitor: optionalText(),
  }),
});

const DEFAULT_TOP_UM = 100;
const DEFAULT_POINTS = 10;
export const STANDARD_SUBSTRATE = "lab's standard substrate (not stated)";

const BY_DETECTION: Record<"absorbance" | "fluorescence" | "luminescence", AssayType> = {
  absorbance: "COLORIMETRIC",
  fluorescence: "FLUOROMETRIC",
  luminescence: "LUMINESCENT",
};

function readout(
  stated: AssayType | undefined,
  ctx: PlanContext,
): { assay: AssayType; detection: DetectionMethod } | undefined {
  ctx.key(stated !== undefined);
  switch (stated) {
    case "COLORIMETRIC":
      return { assay: stated, detection: "absorbance" };
    case "FLUOROMETRIC":
      return { assay: stated, detection: "fluorescence" };
    case "LUMINESCENT":
      return { assay: stated, detection: "luminescence" };
    case "RADIOMETRIC":
      ctx.problem(
        "enzyme_inhibition.assay_type",
        "RADIOMETRIC assays are not run by cloud labs: choose a colorimetric, fluorometric or luminescent read-out",
      );
      return undefined;
    case "COUPLED":
      return { assay: stated, detection: ctx.preferredDetection(["absorbance", "fluorescence"] as const) };
    case "OTHER": {
      const detection = ctx.preferredDetection(["absorbance", "fluorescence", "luminescence"] as const);
      ctx.note(`Assay type OTHER: planned with a ${detection} read-out; describe the assay to the lab.`);
      return { assay: stated, detection };
    }
    default: {
      const detection = ctx.preferredDetection(["absorbance", "fluorescence", "luminescence"] as const);
      const assay = BY_DETECTION[detection];
      ctx.note(`Assay type not stated: ${assay} (${detection}) assumed.`);
      return { assay, detection };
    }
  }
}

export function buildEnzymePlan(
  intake: Record<string, unknown>,
  common: CommonFields,
  ctx: PlanContext,
): EnzymePlan | undefined {
  const parsed = parseWith(enzymeSchema, intake);
  if ("problems" in parsed) {
    ctx.problems.push(...parsed.problems);
    return undefined;
  }
  const section = parsed.data.enzyme_inhibition;
  ctx.key(true); // enzyme
  ctx.key(true); // inhibitor

  const converted: number[] = [];
  let zeros = 0;
  (section.inhibitor_concentrations ?? []).forEach((c, index) => {
    const at = `enzyme_inhibition.inhibitor_concentrations[${index}]`;
    const factor = molarFactor(c.unit);
    if (factor === null) {
      ctx.problem(
        `${at}.unit`,
        `"${c.unit}" is not a molar unit: inhibitor concentrations are planned in µM (pM, nM, µM, mM or M are converted)`,
      );
      return;
    }
    if (c.value === 0) {
      zeros += 1;
      return;
    }
    const value = scaled(c.value, factor);
    if (value === null) ctx.problem(`${at}.value`, "is out of range once converted to µM");
    else converted.push(readable(value));
  });
  if (zeros > 0)
    ctx.note("A concentration of 0 is the vehicle control, which every plate has; not a dose point.");
  const distinct = distinctDescending(converted);
  if (distinct.duplicates > 0)
    ctx.note(`${distinct.duplicates} repeated inhibitor concentration(s) counted once.`);
  const concentrations = ctx.pick(
    distinct.values.length > 0 ? distinct.values : undefined,
    dilutionSeries(DEFAULT_TOP_UM, "half-log", DEFAULT_POINTS),
    `No inhibitor concentrations: a ${DEFAULT_POINTS}-point half-log series from ${DEFAULT_TOP_UM} µM planned.`,
  );

  const read = readout(section.assay_type, ctx);
  const substrate = ctx.pick(
    section.substrate,
    STANDARD_SUBSTRATE,
    `Substrate not stated: the lab's standard substrate for ${section.target_enzyme}, near its Km, assumed; name it in enzyme_inhibition.substrate.`,
  );
  const minutes = ctx.pick(
    section.incubation_time_minutes,
    30,
    "Incubation time not stated: 30 min assumed.",
  );
  const temperature = ctx.pick(
    section.incubation_temperature_c,
    25,
    "Incubation temperature not stated: 25 °C assumed.",
  );
  const replicates = readReplicates(common, ctx);
  const bsl = readBsl(common, ctx);
  if (ctx.problems.length > 0 || !read) return undefined;

  const title = readTitle(common, ctx, `${section.target_enzyme} inhibition by ${section.inhibitor_name}`);
  return {
    experiment_type: "ENZYME_INHIBITION_IC50",
    title,
    replicates,
    bsl,
    plate_format: ctx.preferredPlate(),
    detection_method: read.detection,
    sample_count: concentrations.length * replicates.technical * replicates.biological,
    enzyme: section.target_enzyme,
    substrate,
    inhibitor: { name: section.inhibitor_name, concentrations_um: concentrations },
    assay_type: read.assay,
    incubation_minutes: minutes,
    temperature_c: temperature,
    wavelength_nm: section.detection_wavelength_nm ?? null,
    positive_control: section.positive_control_inhibitor ?? null,
  };
}
