/**
 * interpretIntake: an intake (a POST /experiments body, possibly partial) -> a LabPlan and its
 * public Interpretation, or the problems that stop a plan. Pure and deterministic: the same
 * intake and provider give the same answer; nothing is read from the clock or the network.
 *
 * What is a problem (the plan is refused, never silently cut down): a non-object intake, a
 * missing or unknown experiment_type, a missing type section, a present field of the wrong type,
 * a value out of range, anything beyond PLAN_LIMITS, a unit that does not convert, a level above
 * BSL-2, and what cannot be planned (a protocol design request, a radiometric assay...). Absent
 * optional fields are not problems: they get the standard defaults, each written in the notes.
 * At most MAX_PROBLEMS problems are listed, so a hostile intake gets a bounded answer.
 */

import { EXPERIMENT_TYPES, type ExperimentTypeName } from "@petri/contracts/vocabulary";
import type { CloudLabProvider, Interpretation, LabPlan, PlanProblem } from "../plan.js";
import { buildCustomPlan } from "./builders/custom.js";
import { buildEnzymePlan } from "./builders/enzyme.js";
import { buildGrowthPlan } from "./builders/growth.js";
import { buildMicPlan } from "./builders/mic.js";
import { buildQpcrPlan } from "./builders/qpcr.js";
import { buildSangerPlan } from "./builders/sanger.js";
import { buildViabilityPlan } from "./builders/viability.js";
import { buildZonePlan } from "./builders/zone.js";
import { commonSchema, type CommonFields } from "./common.js";
import { PlanContext } from "./context.js";
import { parseWith } from "./fields.js";
import { summarise } from "./interpretation.js";

export type InterpretResult = { plan: LabPlan; interpretation: Interpretation } | { problems: PlanProblem[] };

export const MAX_PROBLEMS = 50;

type Builder = (
  intake: Record<string, unknown>,
  common: CommonFields,
  ctx: PlanContext,
) => LabPlan | undefined;

const BUILDERS: Record<ExperimentTypeName, Builder> = {
  MIC_MBC_ASSAY: buildMicPlan,
  ZONE_OF_INHIBITION: buildZonePlan,
  CELL_VIABILITY_IC50: buildViabilityPlan,
  ENZYME_INHIBITION_IC50: buildEnzymePlan,
  QPCR_EXPRESSION: buildQpcrPlan,
  SANGER_PLASMID_VERIFICATION: buildSangerPlan,
  MICROBIAL_GROWTH_MATRIX: buildGrowthPlan,
  CUSTOM: buildCustomPlan,
};

/** The one type section of the single-section types (MIC and CUSTOM check their two forms). */
const SECTION: Partial<Record<ExperimentTypeName, string>> = {
  ZONE_OF_INHIBITION: "zone_of_inhibition",
  CELL_VIABILITY_IC50: "cell_viability",
  ENZYME_INHIBITION_IC50: "enzyme_inhibition",
  QPCR_EXPRESSION: "qpcr",
  SANGER_PLASMID_VERIFICATION: "sanger",
  MICROBIAL_GROWTH_MATRIX: "microbial_growth",
};

function isExperimentType(value: unknown): value is ExperimentTypeName {
  return typeof value === "string" && (EXPERIMENT_TYPES as readonly string[]).includes(value);
}

function bounded(problems: PlanProblem[]): { problems: PlanProblem[] } {
  const seen = new Set<string>();
  const unique = problems.filter((p) => {
    const key = `${p.field}\u0000${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (unique.length <= MAX_PROBLEMS) return { problems: unique };
  return {
    problems: [
      ...unique.slice(0, MAX_PROBLEMS - 1),
      { field: "intake", message: `${unique.length - MAX_PROBLEMS + 1} more problems not listed` },
    ],
  };
}

export function interpretIntake(intake: unknown, provider?: CloudLabProvider): InterpretResult {
  if (intake === null || typeof intake !== "object" || Array.isArray(intake)) {
    return { problems: [{ field: "intake", message: "must be an object (an experiment request)" }] };
  }
  const body = intake as Record<string, unknown>;
  const type = body.experiment_type;
  if (type === undefined || type === null) {
    return { problems: [{ field: "experiment_type", message: "is required" }] };
  }
  if (!isExperimentType(type)) {
    return {
      problems: [
        {
          field: "experiment_type",
          message: `must be one of ${EXPERIMENT_TYPES.join(", ")} (invalid_experiment_type)`,
        },
      ],
    };
  }
  const section = SECTION[type];
  if (section !== undefined && (body[section] === undefined || body[section] === null)) {
    return { problems: [{ field: section, message: `is required for ${type}` }] };
  }

  const common = parseWith(commonSchema, body);
  if ("problems" in common) return bounded(common.problems);
  const ctx = new PlanContext(provider);
  const plan = BUILDERS[type](body, common.data, ctx);
  if (!plan || ctx.problems.length > 0) {
    return bounded(
      ctx.problems.length > 0 ? ctx.problems : [{ field: "intake", message: "cannot be planned" }],
    );
  }
  return { plan, interpretation: summarise(plan, ctx) };
}
