/**
 * MIC_MBC_ASSAY: broth microdilution (CLSI M07), from `mic_mbc` (one organism, one compound, a
 * range), from the cloud-lab form `mic_mbc_assay` (organisms x compounds with explicit
 * concentrations), or from both: the lists are joined, an organism or compound named in both
 * forms counts once and the explicit concentrations of `mic_mbc_assay` win.
 *
 * Defaults (CLSI M07 as summarised in docs/assay-notes.md 5.4 and 7.1): cation-adjusted
 * Mueller-Hinton broth, 5 x 10^5 CFU/mL final inoculum, 35 °C, 18 h, a 10-point two-fold series
 * from 64 µg/mL when no concentrations are given (the 10 drug columns of the standard plate).
 */
import { z } from "zod";

import { PLAN_LIMITS, type MicPlan, type Organism } from "../../plan.js";
import { listWords, readBsl, readReplicates, readTitle, type CommonFields } from "../common.js";
import { micRangeSchema, micSeries } from "../concentrations.js";
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
import { dilutionSeries, distinctDescending } from "../series.js";
import { parseOrganism, sameOrganism } from "./organisms.js";

const DEFAULT_TOP_UG_ML = 64;
const DEFAULT_POINTS = 10;

const micMbcSchema = z.object({
  organism: optionalText(),
  strain: optionalText(),
  medium: optionalText(),
  compound_name: optionalText(),
  concentration_range: optional(micRangeSchema),
  inoculum_cfu_ml: optional(positiveNumber().max(1e10)),
  incubation_hours: optional(hours()),
  incubation_temperature_c: optional(celsius()),
  positive_control_antibiotic: optionalText(),
  determine_mbc: optional(z.boolean()),
  method: optional(z.enum(["broth_microdilution", "broth_macrodilution", "agar_dilution"])),
});

const micMbcAssaySchema = z.object({
  target_organisms: boundedList(requiredText(), PLAN_LIMITS.organisms, "organisms", 1),
  test_compounds: boundedList(
    z.object({
      name: requiredText(),
      concentrations_ug_ml: boundedList(positiveNumber(), PLAN_LIMITS.concentrations, "concentrations", 1),
    }),
    PLAN_LIMITS.compounds,
    "compounds",
    1,
  ),
});

const sectionsSchema = z.object({
  mic_mbc: optional(micMbcSchema),
  mic_mbc_assay: optional(micMbcAssaySchema),
});

type Compound = MicPlan["compounds"][number];
type MicSection = z.infer<typeof micMbcSchema> | undefined;
type AssaySection = z.infer<typeof micMbcAssaySchema> | undefined;

export function buildMicPlan(
  intake: Record<string, unknown>,
  common: CommonFields,
  ctx: PlanContext,
): MicPlan | undefined {
  const parsed = parseWith(sectionsSchema, intake);
  if ("problems" in parsed) {
    ctx.problems.push(...parsed.problems);
    return undefined;
  }
  const { mic_mbc: mic, mic_mbc_assay: assay } = parsed.data;
  if (!mic && !assay) {
    ctx.problem(
      "mic_mbc",
      "is required for MIC_MBC_ASSAY: send mic_mbc {organism, compound_name, ...} or mic_mbc_assay {target_organisms, test_compounds}",
    );
    return undefined;
  }
  if (mic?.method && mic.method !== "broth_microdilution") {
    ctx.problem(
      "mic_mbc.method",
      `${mic.method} is not run by cloud labs: plans use broth microdilution in plates (CLSI M07)`,
    );
  }

  const organisms = joinOrganisms(mic, assay, ctx);
  const { compounds, statedConcentrations } = joinCompounds(mic, assay, ctx);
  checkListLimits(organisms, compounds, ctx);
  ctx.key(organisms.length > 0);
  ctx.key(compounds.length > 0);
  ctx.key(statedConcentrations);
  const medium = ctx.pick(
    mic?.medium,
    "cation-adjusted Mueller-Hinton broth",
    "Medium not stated: cation-adjusted Mueller-Hinton broth assumed (CLSI M07).",
  );
  const inoculum = ctx.pick(
    mic?.inoculum_cfu_ml,
    500_000,
    "Inoculum not stated: 5 x 10^5 CFU/mL final assumed (CLSI M07).",
  );
  const incubationHours = ctx.pick(
    mic?.incubation_hours,
    18,
    "Incubation time not stated: 18 h assumed (CLSI M07: 16-20 h).",
  );
  const temperature = ctx.pick(
    mic?.incubation_temperature_c,
    35,
    "Incubation temperature not stated: 35 °C assumed (CLSI M07: 35 ± 2 °C).",
  );
  const replicates = readReplicates(common, ctx);
  const bsl = readBsl(common, ctx);
  if (ctx.problems.length > 0) return undefined;

  const determineMbc = mic?.determine_mbc ?? false;
  const wellsPerReplicate =
    compounds.reduce((sum, c) => sum + c.concentrations_ug_ml.length, 0) * organisms.length;
  const title = readTitle(
    common,
    ctx,
    `${determineMbc ? "MIC and MBC" : "MIC"} of ${listWords(compounds.map((c) => c.name))} against ${listWords(organisms.map((o) => o.name))}`,
  );
  return {
    experiment_type: "MIC_MBC_ASSAY",
    title,
    replicates,
    bsl,
    plate_format: ctx.preferredPlate(),
    detection_method: "absorbance",
    sample_count: wellsPerReplicate * replicates.technical * replicates.biological,
    organisms,
    compounds,
    medium,
    inoculum_cfu_ml: inoculum,
    incubation_hours: incubationHours,
    temperature_c: temperature,
    determine_mbc: determineMbc,
    positive_control: mic?.positive_control_antibiotic ?? null,
  };
}

/** The form's organisms, then mic_mbc's organism unless already listed. */
function joinOrganisms(mic: MicSection, assay: AssaySection, ctx: PlanContext): Organism[] {
  const organisms: Organism[] = (assay?.target_organisms ?? []).map(parseOrganism);
  if (mic?.organism) {
    const single: Organism = mic.strain
      ? { name: mic.organism, strain: mic.strain }
      : parseOrganism(mic.organism);
    if (!organisms.some((o) => sameOrganism(o, single))) organisms.push(single);
  } else if (mic && !assay) {
    ctx.problem("mic_mbc.organism", "is required: name the organism to test");
  }

  return organisms;
}

/**
 * The form's compounds with their explicit concentrations, then mic_mbc's compound unless
 * already listed, with its range or a default series (then the concentrations are not stated).
 */
function joinCompounds(
  mic: MicSection,
  assay: AssaySection,
  ctx: PlanContext,
): { compounds: Compound[]; statedConcentrations: boolean } {
  const compounds: Compound[] = [];
  let statedConcentrations = true;
  (assay?.test_compounds ?? []).forEach((compound, index) => {
    if (compounds.some((c) => c.name.toLowerCase() === compound.name.toLowerCase())) {
      ctx.problem(`mic_mbc_assay.test_compounds[${index}].name`, `${compound.name} is listed twice`);
      return;
    }
    const { values, duplicates } = distinctDescending(compound.concentrations_ug_ml);
    if (duplicates > 0) ctx.note(`${compound.name}: ${duplicates} repeated concentration(s) counted once.`);
    compounds.push({ name: compound.name, concentrations_ug_ml: values });
  });
  if (mic?.compound_name) {
    const listed = compounds.find((c) => c.name.toLowerCase() === mic.compound_name?.toLowerCase());
    if (listed && mic.concentration_range) {
      ctx.note(
        `${listed.name}: the concentrations listed in mic_mbc_assay are used, not mic_mbc.concentration_range.`,
      );
    } else if (!listed) {
      let series: number[] | undefined;
      if (mic.concentration_range) {
        series = micSeries(mic.concentration_range, "mic_mbc.concentration_range", ctx, DEFAULT_POINTS);
      } else {
        statedConcentrations = false;
        ctx.note(
          `No concentrations for ${mic.compound_name}: a ${DEFAULT_POINTS}-point two-fold series from ${DEFAULT_TOP_UG_ML} µg/mL planned.`,
        );
        series = dilutionSeries(DEFAULT_TOP_UG_ML, "2-fold", DEFAULT_POINTS);
      }
      if (series) compounds.push({ name: mic.compound_name, concentrations_ug_ml: series });
    }
  } else if (mic && !assay) {
    ctx.problem("mic_mbc.compound_name", "is required: name the compound to test");
  }

  return { compounds, statedConcentrations };
}

function checkListLimits(
  organisms: readonly Organism[],
  compounds: readonly Compound[],
  ctx: PlanContext,
): void {
  if (organisms.length > PLAN_LIMITS.organisms) {
    ctx.problem(
      "mic_mbc_assay.target_organisms",
      `at most ${PLAN_LIMITS.organisms} organisms are supported (got ${organisms.length})`,
    );
  }
  if (compounds.length > PLAN_LIMITS.compounds) {
    ctx.problem(
      "mic_mbc_assay.test_compounds",
      `at most ${PLAN_LIMITS.compounds} compounds are supported (got ${compounds.length})`,
    );
  }
}
