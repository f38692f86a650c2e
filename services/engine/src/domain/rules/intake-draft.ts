/**
 * The POST /experiments body the rules engine drafts: the type's sections with placeholder
 * budget, turnaround, replicates and privacy, the biosafety level the organisms imply, and the
 * notes that say what the client must check.
 */

import type { ExperimentTypeName } from "@petri/contracts/vocabulary";
import type { HypothesisText } from "../generation.js";
import type { TypeDraft } from "./draft/index.js";
import type { Extraction } from "./extract.js";
import { clampText } from "./format.js";

/** Placeholder budget (midpoint of docs/intake-model.md's typical band) and turnaround per type. */
export const TYPE_DEFAULTS: Readonly<
  Record<ExperimentTypeName, { budgetUsd: number; turnaroundDays: number }>
> = {
  SANGER_PLASMID_VERIFICATION: { budgetUsd: 100, turnaroundDays: 7 },
  QPCR_EXPRESSION: { budgetUsd: 350, turnaroundDays: 14 },
  CELL_VIABILITY_IC50: { budgetUsd: 550, turnaroundDays: 21 },
  ENZYME_INHIBITION_IC50: { budgetUsd: 400, turnaroundDays: 14 },
  MICROBIAL_GROWTH_MATRIX: { budgetUsd: 275, turnaroundDays: 14 },
  MIC_MBC_ASSAY: { budgetUsd: 300, turnaroundDays: 14 },
  ZONE_OF_INHIBITION: { budgetUsd: 175, turnaroundDays: 10 },
  CUSTOM: { budgetUsd: 1000, turnaroundDays: 30 },
};

const LIMITS = { title: 200, statement: 1000, nullHypothesis: 1000, rationale: 2000 } as const;

export const HUMAN_MATERIAL =
  /\bhuman (?:serum|plasma|blood|whole blood|red blood cells|erythrocytes|primary cells|tissue|saliva|urine|sputum)\b|\bPBMCs?\b/i;

/** The highest biosafety level of the organisms named (unknown ones count as BSL-2). */
export function biosafety(extraction: Extraction): { level: number; reasons: string[] } {
  const reasons: string[] = [];
  let level = 1;
  for (const o of extraction.organisms) {
    const known = o.strainInfo?.bsl ?? o.entry?.bsl;
    const organismLevel = known ?? 2;
    reasons.push(
      known !== undefined
        ? `${o.name}${o.strainInfo?.bsl !== undefined ? ` ${o.strain}` : ""}: BSL-${known}`
        : `${o.name}: level not certain, assumed BSL-2`,
    );
    level = Math.max(level, organismLevel);
  }
  return { level, reasons };
}

export function buildIntake(
  type: ExperimentTypeName,
  draft: TypeDraft,
  hypothesis: HypothesisText,
  extraction: Extraction,
  bsl: number,
  text: string,
): Record<string, unknown> {
  const defaults = TYPE_DEFAULTS[type];
  const species = extraction.cellLines.map((c) => c.entry?.species);
  const acceptance: Record<string, unknown> = {
    success_conditions: draft.successConditions,
    failure_conditions: draft.failureConditions,
    statistical_requirements: {
      significance_level: 0.05,
      ...(draft.statisticalTest ? { statistical_test: draft.statisticalTest } : {}),
    },
  };
  return {
    experiment_type: type,
    title: draft.title,
    hypothesis: { ...hypothesis },
    compliance: {
      bsl: `BSL-${Math.min(bsl, 4)}`,
      human_derived_material: species.includes("human") || HUMAN_MATERIAL.test(text),
      animal_derived_material: species.some((s) => s !== undefined && s !== "human"),
    },
    privacy: "private",
    turnaround_budget: {
      budget_max_usd: defaults.budgetUsd,
      desired_turnaround_days: defaults.turnaroundDays,
    },
    replicates: replicatesFor(type),
    deliverables: {
      minimum_package_level: draft.packageLevel,
      raw_data_formats: draft.rawDataFormats,
      required_processed_outputs: draft.processedOutputs,
    },
    acceptance_criteria: acceptance,
    ...(draft.materials.length > 0 ? { materials_provided: draft.materials } : {}),
    ...draft.sections,
  };
}

export function fitHypothesis(hypothesis: HypothesisText): HypothesisText {
  const statement = clampText(hypothesis.statement.trim(), LIMITS.statement);
  return {
    statement: statement.length >= 10 ? statement : `${statement} (statement to be completed)`.trim(),
    null_hypothesis: clampText(hypothesis.null_hypothesis.trim(), LIMITS.nullHypothesis),
    rationale: clampText(hypothesis.rationale.trim(), LIMITS.rationale),
  };
}

export function fitTitle(title: string): string {
  const clamped = clampText(title.trim(), LIMITS.title);
  return clamped.length >= 5 ? clamped : "Experiment drafted from a query";
}

/** What the client must check in the draft: rejection, human material, placeholders. */
export function draftNotes(
  type: ExperimentTypeName,
  draft: TypeDraft,
  bsl: number,
  extraction: Extraction,
  text: string,
): string[] {
  const notes = [...draft.notes];
  if (bsl >= 3) {
    notes.unshift(
      `An organism in the query needs BSL-${bsl}; Petri accepts BSL-1 and BSL-2 work only, so this draft will be rejected at validation.`,
    );
  }
  if (extraction.cellLines.some((c) => c.entry?.species === "human") || HUMAN_MATERIAL.test(text)) {
    notes.push(
      "Human-derived material: compliance.human_derived_material is set; set compliance.bsl to BSL-2 if your institution requires it.",
    );
  }
  const defaults = TYPE_DEFAULTS[type];
  notes.push(
    `Budget ${defaults.budgetUsd} USD and turnaround ${defaults.turnaroundDays} days are placeholders; POST /estimate prices the request.`,
    type === "ZONE_OF_INHIBITION"
      ? "Replicates (3 replicate disks on one lawn, 1 biological) and privacy (private) are defaults; add lawns (biological replicates) if you need them."
      : "Replicates (3 technical x 3 biological) and privacy (private) are defaults.",
  );
  return notes;
}

/**
 * Default replicates: 3 x 3, except disk diffusion, whose technical replicates are disks on one
 * lawn (a lawn per biological replicate is a separate plate, which a cloud lab runs as a
 * separate protocol).
 */
function replicatesFor(type: ExperimentTypeName): { technical: number; biological: number } {
  return type === "ZONE_OF_INHIBITION" ? { technical: 3, biological: 1 } : { technical: 3, biological: 3 };
}
