/**
 * Concentration series from the ranges an intake states (mic_mbc.concentration_range,
 * cell_viability.dose_range), converted to plan units and checked against
 * PLAN_LIMITS.concentrations before any list is built.
 */
import { z } from "zod";

import { PLAN_LIMITS } from "../plan.js";
import type { PlanContext } from "./context.js";
import { optional, requiredText } from "./fields.js";
import { dilutionSeries, logSpaced, pointsBetween, readable, type SeriesKind } from "./series.js";
import { massConcentrationFactor, molarFactor, scaled } from "./units.js";

const unitText = () => requiredText(32);

export const micRangeSchema = z.object({
  min: optional(z.number().positive()),
  max: z.number().positive(),
  unit: unitText(),
  dilution_series: optional(z.enum(["2-fold", "custom"])),
});

export const doseRangeSchema = z.object({
  min: optional(z.number().nonnegative()),
  max: z.number().positive(),
  unit: unitText(),
  points: optional(z.int().min(3)),
  dilution_series: optional(z.enum(["2-fold", "3-fold", "half-log", "custom"])),
});

const fmt = (value: number) => String(readable(value));

function tooMany(ctx: PlanContext, field: string, count: number, what: string): boolean {
  if (Number.isFinite(count) && count <= PLAN_LIMITS.concentrations) return false;
  const got = Number.isFinite(count) && count < 1e9 ? String(count) : "far more";
  ctx.problem(
    field,
    `${what} gives ${got} concentrations; at most ${PLAN_LIMITS.concentrations} are supported: narrow the range or choose fewer points`,
  );
  return true;
}

/** A series whose low end underflowed to 0 (ranges near the limits of floating point) is refused. */
function usable(series: number[], at: string, ctx: PlanContext): number[] | undefined {
  if (series.every((value) => Number.isFinite(value) && value > 0)) return series;
  ctx.problem(at, "gives concentrations too small to represent: raise the range");
  return undefined;
}

interface Bounds {
  max: number;
  min: number | undefined;
}

/** Converts max/min with `factor`; problems for values that leave the number range or are inverted. */
function convertBounds(
  range: { max: number; min?: number | undefined },
  factor: number,
  at: string,
  unitLabel: string,
  ctx: PlanContext,
): Bounds | undefined {
  const max = scaled(range.max, factor);
  if (max === null) {
    ctx.problem(`${at}.max`, `is out of range once converted to ${unitLabel}`);
    return undefined;
  }
  if (range.min === undefined || range.min === 0) return { max, min: undefined };
  const min = scaled(range.min, factor);
  if (min === null) {
    ctx.problem(`${at}.min`, `is out of range once converted to ${unitLabel}`);
    return undefined;
  }
  if (min >= max) {
    ctx.problem(`${at}.max`, "must be greater than min");
    return undefined;
  }
  return { max, min };
}

/** mic_mbc.concentration_range -> final concentrations in µg/mL, highest first. */
export function micSeries(
  range: z.output<typeof micRangeSchema>,
  at: string,
  ctx: PlanContext,
  defaultPoints: number,
): number[] | undefined {
  const factor = massConcentrationFactor(range.unit);
  if (factor === null) {
    ctx.problem(
      `${at}.unit`,
      `"${range.unit}" is not a mass concentration: MIC concentrations are planned in µg/mL (ng/mL, µg/mL, mg/mL or mg/L are converted)`,
    );
    return undefined;
  }
  const bounds = convertBounds(range, factor, at, "µg/mL", ctx);
  if (!bounds) return undefined;
  if (range.dilution_series === "custom") {
    ctx.note(
      `${at}: a custom series without a list of concentrations; a two-fold series is planned (give mic_mbc_assay.test_compounds[].concentrations_ug_ml for other steps).`,
    );
  }
  if (bounds.min === undefined) {
    ctx.note(`${at}: no min; ${defaultPoints} two-fold steps down from ${fmt(bounds.max)} µg/mL planned.`);
    return usable(dilutionSeries(bounds.max, "2-fold", defaultPoints), at, ctx);
  }
  const count = pointsBetween(bounds.max, bounds.min, "2-fold");
  if (tooMany(ctx, at, count, "This two-fold range")) return undefined;
  return usable(dilutionSeries(bounds.max, "2-fold", count), at, ctx);
}

/** cell_viability.dose_range -> final concentrations in µM, highest first. */
export function doseSeries(
  range: z.output<typeof doseRangeSchema>,
  at: string,
  ctx: PlanContext,
  defaultPoints: number,
): number[] | undefined {
  const series = unsafeDoseSeries(range, at, ctx, defaultPoints);
  return series && usable(series, at, ctx);
}

function unsafeDoseSeries(
  range: z.output<typeof doseRangeSchema>,
  at: string,
  ctx: PlanContext,
  defaultPoints: number,
): number[] | undefined {
  const factor = molarFactor(range.unit);
  if (factor === null) {
    ctx.problem(
      `${at}.unit`,
      `"${range.unit}" is not a molar unit: doses are planned in µM (pM, nM, µM, mM or M are converted; a mass unit needs a molecular weight the intake does not carry)`,
    );
    return undefined;
  }
  if (range.points !== undefined && range.points > PLAN_LIMITS.concentrations) {
    ctx.problem(
      `${at}.points`,
      `at most ${PLAN_LIMITS.concentrations} points are supported (got ${range.points})`,
    );
    return undefined;
  }
  const bounds = convertBounds(range, factor, at, "µM", ctx);
  if (!bounds) return undefined;
  if (range.min === 0)
    ctx.note(`${at}: min 0 is the vehicle control, which every plate has; not a dose point.`);
  const stated: SeriesKind | undefined =
    range.dilution_series === "custom" ? undefined : range.dilution_series;
  if (range.dilution_series === "custom") {
    ctx.note(`${at}: a custom series without a list of doses; spacing derived from the range.`);
  }
  const top = bounds.max;
  const label = (kind: SeriesKind) => `${kind} series from ${fmt(top)} µM`;

  if (range.points !== undefined) {
    const points = range.points;
    if (stated) {
      const series = dilutionSeries(top, stated, points);
      const lowest = series[series.length - 1] as number;
      if (bounds.min !== undefined && Math.abs(lowest / bounds.min - 1) > 0.05) {
        ctx.note(
          `${at}: the ${points}-point ${label(stated)} ends at ${fmt(lowest)} µM, not at min ${fmt(bounds.min)} µM; points and spacing kept.`,
        );
      }
      return series;
    }
    if (bounds.min !== undefined) {
      ctx.note(`${at}: spacing not stated; ${points} points evenly spaced on a log scale from max to min.`);
      return logSpaced(top, bounds.min, points);
    }
    ctx.note(`${at}: spacing not stated; ${points}-point ${label("half-log")} planned.`);
    return dilutionSeries(top, "half-log", points);
  }

  const kind = stated ?? "half-log";
  if (!stated) ctx.note(`${at}: spacing not stated; half-log steps planned.`);
  if (bounds.min === undefined) {
    ctx.note(`${at}: no min and no points; ${defaultPoints}-point ${label(kind)} planned.`);
    return dilutionSeries(top, kind, defaultPoints);
  }
  const count = pointsBetween(top, bounds.min, kind);
  if (tooMany(ctx, at, count, `A ${kind} range from ${fmt(top)} to ${fmt(bounds.min)} µM`)) return undefined;
  return dilutionSeries(top, kind, count);
}
