/**
 * MICROBIAL_GROWTH_MATRIX: one growth curve per combination of the condition matrix (full
 * factorial), read as OD600 (docs/assay-notes.md 7.4: reads every 10-30 min, with
 * shaking, >= 3 replicate wells).
 *
 * Read interval: the smallest gap of read_schedule, else 15 min; endpoint_only means one read at
 * the end. Duration: incubation_hours, else the last scheduled read, else 24 h. Defaults: 37 °C,
 * shaking. A missing base medium is planned as the lab's standard medium for the organism and
 * said so (the medium depends on the organism; there is no neutral default).
 * A schedule of CFU counts only is read by imaging colonies; OD600 (or both) by absorbance.
 */
import { z } from "zod";

import { PLAN_LIMITS, type GrowthPlan } from "../../plan.js";
import { readBsl, readReplicates, readTitle, type CommonFields } from "../common.js";
import type { PlanContext } from "../context.js";
import { boundedList, celsius, hours, optional, optionalText, parseWith, requiredText } from "../fields.js";
import { parseOrganism } from "./organisms.js";

const growthSchema = z.object({
  microbial_growth: z.object({
    organism: requiredText(),
    strain: optionalText(),
    base_medium: optionalText(),
    condition_matrix: boundedList(
      z.object({
        variable: requiredText(),
        values: boundedList(
          z.object({
            value: z.union([requiredText(), z.number()], { error: "must be a number or a non-empty string" }),
            unit: optionalText(32),
          }),
          PLAN_LIMITS.growth_conditions,
          "values",
          1,
        ),
      }),
      PLAN_LIMITS.growth_conditions,
      "variables",
      1,
    ),
    incubation_temperature_c: optional(celsius()),
    incubation_hours: optional(hours()),
    aeration: optional(z.enum(["static", "shaking", "anaerobic"])),
    read_schedule: optional(
      boundedList(
        z.object({
          time_hours: z
            .number()
            .nonnegative()
            .max(24 * 30),
          measurement: z.enum(["OD600", "CFU", "both"]),
        }),
        1000,
        "scheduled reads",
      ),
    ),
    endpoint_only: optional(z.boolean()),
  }),
});

type Section = z.output<typeof growthSchema>["microbial_growth"];
type Setting = GrowthPlan["conditions"][number]["settings"][number];
export const STANDARD_MEDIUM = "lab's standard medium (not stated)";

function combinations(
  matrix: Section["condition_matrix"],
  ctx: PlanContext,
): GrowthPlan["conditions"] | undefined {
  let count = 1;
  for (const variable of matrix) {
    count *= variable.values.length;
    if (count > PLAN_LIMITS.growth_conditions) {
      ctx.problem(
        "microbial_growth.condition_matrix",
        `the matrix has more than ${PLAN_LIMITS.growth_conditions} combinations; at most ${PLAN_LIMITS.growth_conditions} conditions are supported`,
      );
      return undefined;
    }
  }
  let rows: Setting[][] = [[]];
  for (const variable of matrix) {
    rows = rows.flatMap((row) =>
      variable.values.map((v) => [
        ...row,
        { variable: variable.variable, value: v.value, unit: v.unit ?? null },
      ]),
    );
  }
  return rows.map((settings) => ({
    label: settings.map((s) => `${s.variable}=${s.value}${s.unit ? ` ${s.unit}` : ""}`).join(", "),
    settings,
  }));
}

export function buildGrowthPlan(
  intake: Record<string, unknown>,
  common: CommonFields,
  ctx: PlanContext,
): GrowthPlan | undefined {
  const parsed = parseWith(growthSchema, intake);
  if ("problems" in parsed) {
    ctx.problems.push(...parsed.problems);
    return undefined;
  }
  const section = parsed.data.microbial_growth;
  const organism = section.strain
    ? { name: section.organism, strain: section.strain }
    : parseOrganism(section.organism);
  ctx.key(true); // organism
  ctx.key(true); // conditions
  const conditions = combinations(section.condition_matrix, ctx);

  const medium = ctx.pick(
    section.base_medium,
    STANDARD_MEDIUM,
    `Base medium not stated: the lab's standard medium for ${organism.name} assumed; name it in microbial_growth.base_medium.`,
  );
  const temperature = ctx.pick(
    section.incubation_temperature_c,
    37,
    "Incubation temperature not stated: 37 °C assumed.",
  );
  const times = [...new Set((section.read_schedule ?? []).map((r) => r.time_hours))].sort((a, b) => a - b);
  const lastRead = times.length > 0 ? times[times.length - 1] : undefined;
  const duration = ctx.pick(
    section.incubation_hours ?? (lastRead !== undefined && lastRead > 0 ? lastRead : undefined),
    24,
    "Duration not stated: 24 h assumed.",
  );
  let interval: number | undefined;
  if (section.endpoint_only) {
    interval = Math.round(duration * 60);
    ctx.note("Endpoint only: one read at the end of the incubation.");
  } else if (times.length >= 2) {
    const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
    interval = Math.max(1, Math.round(Math.min(...gaps) * 60));
  }
  const readInterval = ctx.pick(
    interval,
    15,
    "Read interval not stated: OD600 every 15 min assumed (10-30 min is usual).",
  );
  const aeration = ctx.pick(section.aeration, "shaking", "Aeration not stated: shaking assumed.");
  const replicates = readReplicates(common, ctx);
  const bsl = readBsl(common, ctx);
  if (ctx.problems.length > 0 || !conditions) return undefined;

  const cfuOnly =
    (section.read_schedule ?? []).length > 0 &&
    (section.read_schedule ?? []).every((r) => r.measurement === "CFU");
  const title = readTitle(
    common,
    ctx,
    `${organism.name} growth across ${section.condition_matrix.map((v) => v.variable).join(" x ")}`,
  );
  return {
    experiment_type: "MICROBIAL_GROWTH_MATRIX",
    title,
    replicates,
    bsl,
    plate_format: ctx.preferredPlate(),
    detection_method: cfuOnly ? "imaging" : "absorbance",
    sample_count: conditions.length * replicates.technical * replicates.biological,
    organism,
    medium,
    conditions,
    temperature_c: temperature,
    duration_hours: duration,
    read_interval_minutes: readInterval,
    aeration,
  };
}
