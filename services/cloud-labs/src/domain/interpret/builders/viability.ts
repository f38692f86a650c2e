/**
 * CELL_VIABILITY_IC50 (docs/assay-notes.md 5.5 and 7.2).
 *
 * The read-out follows the assay type (CellTiter-Glo: luminescence; MTT, MTS: absorbance;
 * resazurin: fluorescence; live/dead: fluorescence or imaging). Without an assay type the
 * CellTiter-Glo luminescence assay of skeleton B is planned, unless the provider lacks a
 * luminescence reader; then the first of resazurin (fluorescence) or MTS (absorbance) it can read.
 *
 * Defaults: a 10-point half-log series from 30 µM (30 ... 0.001 µM, four log units, so both
 * plateaus are usually covered), 72 h exposure and 5,000 cells per well in 96-well plates
 * (skeleton B); 1,250 in 384-well plates (a quarter, as the well holds about a quarter of the
 * volume); DMSO as solvent (docs/intake-model.md).
 */
import { z } from "zod";

import type { DetectionMethod, ViabilityPlan } from "../../plan.js";
import { readBsl, readReplicates, readTitle, type CommonFields } from "../common.js";
import { doseRangeSchema, doseSeries } from "../concentrations.js";
import type { PlanContext } from "../context.js";
import { hours, optional, optionalText, parseWith, requiredText } from "../fields.js";
import { dilutionSeries } from "../series.js";

const ASSAY_TYPES = ["CELLTITER_GLO", "MTT", "MTS", "RESAZURIN", "LIVE_DEAD", "OTHER"] as const;
type AssayType = (typeof ASSAY_TYPES)[number];

const viabilitySchema = z.object({
  cell_viability: z.object({
    cell_line: requiredText(),
    assay_type: optional(z.enum(ASSAY_TYPES)),
    compound_name: requiredText(),
    solvent: optionalText(),
    dose_range: optional(doseRangeSchema),
    exposure_time_hours: optional(hours()),
    seeding_density_cells_per_well: optional(z.int().min(1).max(10_000_000)),
    plate_format: optional(z.enum(["96-well", "384-well"])),
    positive_control: optionalText(),
  }),
});

const DEFAULT_TOP_UM = 30;
const DEFAULT_POINTS = 10;

const READOUT: Record<Exclude<AssayType, "LIVE_DEAD" | "OTHER">, DetectionMethod> = {
  CELLTITER_GLO: "luminescence",
  MTT: "absorbance",
  MTS: "absorbance",
  RESAZURIN: "fluorescence",
};

function readout(
  stated: AssayType | undefined,
  ctx: PlanContext,
): { assay: AssayType; detection: DetectionMethod } {
  ctx.key(stated !== undefined);
  if (stated === "LIVE_DEAD") {
    return { assay: stated, detection: ctx.preferredDetection(["fluorescence", "imaging"] as const) };
  }
  if (stated === "OTHER") {
    const detection = ctx.preferredDetection(["luminescence", "fluorescence", "absorbance"] as const);
    ctx.note(`Assay type OTHER: planned with a ${detection} read-out; describe the assay to the lab.`);
    return { assay: stated, detection };
  }
  if (stated) return { assay: stated, detection: READOUT[stated] };
  const detection = ctx.preferredDetection(["luminescence", "fluorescence", "absorbance"] as const);
  const assay: AssayType =
    detection === "luminescence" ? "CELLTITER_GLO" : detection === "fluorescence" ? "RESAZURIN" : "MTS";
  ctx.note(`Assay type not stated: ${assay} (${detection}) assumed.`);
  return { assay, detection };
}

export function buildViabilityPlan(
  intake: Record<string, unknown>,
  common: CommonFields,
  ctx: PlanContext,
): ViabilityPlan | undefined {
  const parsed = parseWith(viabilitySchema, intake);
  if ("problems" in parsed) {
    ctx.problems.push(...parsed.problems);
    return undefined;
  }
  const section = parsed.data.cell_viability;
  ctx.key(true); // cell line
  ctx.key(true); // compound

  let concentrations: number[] | undefined;
  ctx.key(section.dose_range !== undefined);
  if (section.dose_range) {
    concentrations = doseSeries(section.dose_range, "cell_viability.dose_range", ctx, DEFAULT_POINTS);
  } else {
    ctx.note(`No dose range: a ${DEFAULT_POINTS}-point half-log series from ${DEFAULT_TOP_UM} µM planned.`);
    concentrations = dilutionSeries(DEFAULT_TOP_UM, "half-log", DEFAULT_POINTS);
  }

  const { assay, detection } = readout(section.assay_type, ctx);
  ctx.key(section.plate_format !== undefined);
  const plate = section.plate_format ?? ctx.preferredPlate();
  if (!section.plate_format && plate === "96-well") ctx.note("Plate format not stated: 96-well assumed.");
  const exposure = ctx.pick(section.exposure_time_hours, 72, "Exposure time not stated: 72 h assumed.");
  const defaultDensity = plate === "384-well" ? 1_250 : 5_000;
  const density = ctx.pick(
    section.seeding_density_cells_per_well,
    defaultDensity,
    `Seeding density not stated: ${defaultDensity} cells per well assumed (${plate}).`,
  );
  const solvent = ctx.pick(section.solvent, "DMSO", "Solvent not stated: DMSO assumed.");
  const replicates = readReplicates(common, ctx);
  const bsl = readBsl(common, ctx);
  if (ctx.problems.length > 0 || !concentrations) return undefined;

  const title = readTitle(common, ctx, `${section.cell_line} viability IC50 of ${section.compound_name}`);
  return {
    experiment_type: "CELL_VIABILITY_IC50",
    title,
    replicates,
    bsl,
    plate_format: plate,
    detection_method: detection,
    sample_count: concentrations.length * replicates.technical * replicates.biological,
    cell_line: section.cell_line,
    compound: { name: section.compound_name, concentrations_um: concentrations },
    assay_type: assay,
    solvent,
    exposure_hours: exposure,
    seeding_density_cells_per_well: density,
    positive_control: section.positive_control ?? null,
  };
}
