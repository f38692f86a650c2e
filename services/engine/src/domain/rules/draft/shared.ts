/** Types and helpers shared by the per-type drafts. */
import type { CueHit } from "../classify.js";
import type { CompoundMention, Extraction, OrganismMention } from "../extract.js";
import { clampText, quantity, round3 } from "../format.js";
import { canonicalConcentrationUnit, type Quantity } from "../patterns.js";
import {
  readBoundedConcentration,
  readMetricThreshold,
  readPotencyWords,
  type Threshold,
} from "../thresholds.js";

export interface SuccessCondition {
  metric: string;
  operator: "gt" | "gte" | "lt" | "lte" | "eq" | "neq" | "between" | "not_between";
  threshold: number | { min: number; max: number };
  unit?: string;
  description?: string;
}

export interface FailureCondition {
  condition: string;
  interpretation: string;
}

export interface Criterion {
  /** Where the threshold came from. */
  source: "query" | "standard";
  text: string;
}

export interface TypeDraft {
  title: string;
  statement: string;
  nullHypothesis: string;
  criterion: Criterion;
  /** The type's section(s) and, for CUSTOM, the protocol: merged into the intake draft. */
  sections: Record<string, unknown>;
  successConditions: SuccessCondition[];
  failureConditions: FailureCondition[];
  statisticalTest?: "t_test" | "anova" | "mann_whitney" | "chi_square" | "fisher_exact";
  rawDataFormats: string[];
  processedOutputs: string[];
  packageLevel: "L0_RAW_ONLY" | "L1_BASIC_QC" | "L2_INTERPRETATION";
  materials: { name: string; specification?: string; provided_by_requester: boolean }[];
  /** Placeholders and missing inputs the requester must check. */
  notes: string[];
  /** Keywords of the assay for a literature search. */
  searchKeywords: string;
}

/** A draft's hypothesis and the one success condition its criterion sets. */
export interface Claim {
  statement: string;
  nullHypothesis: string;
  criterion: Criterion;
  success: SuccessCondition;
}

export interface DraftInput {
  text: string;
  extraction: Extraction;
  cues: readonly CueHit[];
}

export const NAME_MAX = 120;
export const PLACEHOLDER_ORGANISM = "Organism to be specified";
export const PLACEHOLDER_COMPOUND = "Test compound (name to be specified)";

export const MASS_PER_VOLUME = /^[nµm]?g\/[µm]?L$/;
export const MOLAR = /^[pnµm]?M$/;

export const MOLAR_FACTORS: Record<string, number> = { pM: 1e-12, nM: 1e-9, µM: 1e-6, mM: 1e-3, M: 1 };

export function clampName(name: string): string {
  return clampText(name, NAME_MAX);
}

/** A section's organism and strain fields. */
export function organismFields(o: OrganismMention | undefined): { organism: string; strain?: string } {
  return {
    organism: o ? clampName(o.name) : PLACEHOLDER_ORGANISM,
    ...(o?.strain ? { strain: clampName(o.strain) } : {}),
  };
}

/** A section's organism_source field, for a strain from ATCC or DSMZ. */
export function organismSourceField(o: OrganismMention | undefined): { organism_source?: string } {
  return o?.collection === "ATCC" || o?.collection === "DSMZ" ? { organism_source: o.collection } : {};
}

export function organismLabel(o: OrganismMention | undefined): string {
  if (!o) return PLACEHOLDER_ORGANISM;
  return clampName(o.strain ? `${o.name} ${o.strain}` : o.name);
}

export function compoundLabel(c: CompoundMention | undefined): string {
  return c ? clampName(c.name) : PLACEHOLDER_COMPOUND;
}

/** Quantities of one list or range ("0.125-64 µg/mL") in the given units, largest group first. */
export function firstRange(
  quantities: readonly Quantity[],
  unit: RegExp,
): { min: number; max: number; unit: string } | null {
  const groups = new Map<number, Quantity[]>();
  for (const q of quantities) {
    if (!unit.test(q.unit) || q.value <= 0) continue;
    const list = groups.get(q.group) ?? [];
    list.push(q);
    groups.set(q.group, list);
  }
  for (const list of groups.values()) {
    const values = list.map((q) => q.value);
    const min = Math.min(...values);
    const max = Math.max(...values);
    if (list.length >= 2 && max > min) return { min, max, unit: (list[0] as Quantity).unit };
  }
  return null;
}

export function hoursOf(durations: readonly Quantity[], minHours = 0.5): number | undefined {
  for (const d of durations) {
    const hours =
      d.unit === "h" ? d.value : d.unit === "d" ? d.value * 24 : d.unit === "wk" ? d.value * 168 : undefined;
    if (hours !== undefined && hours >= minHours && hours <= 24 * 30) return hours;
  }
  return undefined;
}

export function minutesOf(durations: readonly Quantity[]): number | undefined {
  const d = durations.find((q) => q.unit === "min" || (q.unit === "h" && q.value <= 4));
  if (!d) return undefined;
  return d.unit === "min" ? d.value : d.value * 60;
}

export function incubationTemperature(extraction: Extraction, low: number, high: number): number | undefined {
  const temps = extraction.temperatures.filter((t) => t.unit === "°C" && t.value >= low && t.value <= high);
  return temps.length === 1 ? (temps[0] as Quantity).value : undefined;
}

/** How a comparator reads: "IC50 below 1 µM", "a MIC of at most 4 µg/mL", and its negation. */
export function comparatorWords(threshold: Threshold): { claim: string; ofClaim: string; negation: string } {
  switch (threshold.comparator) {
    case "lt":
      return { claim: "below", ofClaim: "below", negation: "at or above" };
    case "lte":
      return { claim: "at most", ofClaim: "of at most", negation: "above" };
    case "gt":
      return { claim: "above", ofClaim: "above", negation: "at or below" };
    default:
      return { claim: "at least", ofClaim: "of at least", negation: "below" };
  }
}

/**
 * The criterion and success condition of a threshold the query states: "IC50 below 1 µM (…)".
 * `limit` is the threshold as the claim words it; `unit` the success condition's unit.
 */
export function statedCriterion(
  metric: string,
  threshold: Threshold,
  limit: string,
  description: string,
  unit = threshold.unit,
): Pick<Claim, "criterion" | "success"> {
  const claim = comparatorWords(threshold);
  return {
    criterion: { source: "query", text: `${metric} ${claim.claim} ${limit} (${threshold.text})` },
    success: { metric, operator: threshold.comparator, threshold: threshold.value, unit, description },
  };
}

/** With no threshold stated, the standard criterion: the metric within the tested range. */
export function withinTestedRange(
  metric: string,
  top: { value: number; unit: string },
  description: string,
): Pick<Claim, "criterion" | "success"> {
  return {
    criterion: {
      source: "standard",
      text: `${metric} within the tested range (at most ${quantity(top.value, top.unit)})`,
    },
    success: { metric, operator: "lte", threshold: top.value, unit: top.unit, description },
  };
}

export type Direction = "up" | "down" | "either";

export const UP_WORDS =
  /\b(?:up-?regulat\w*|increas\w*|induc(?:e|es|ed|es|ing|tion)|elevat\w*|higher|enhanc\w*|activat\w*|stimulat\w*|boost\w*|raise[sd]?|more)\b/gi;
export const DOWN_WORDS =
  /\b(?:down-?regulat\w*|decreas\w*|reduc\w*|suppress\w*|repress\w*|lower\w*|inhibit(?:s|ed|ing)?|knock(?:s|ed|ing)?[- ]?down|silenc\w*|attenuat\w*|block\w*|less|fewer|impair\w*|disrupt\w*|prevent\w*|eradicat\w*|kill\w*|slow\w*|delay\w*)\b/gi;

/** "LPS-stimulated", "TNF-induced": how the system was prepared, not the effect claimed. */
const ATTRIBUTIVE_TREATMENT = /\b[\w.]+-(?:stimulated|induced|activated|treated|challenged|primed)\b/gi;

export function directionOf(text: string): Direction {
  const claim = text.replace(ATTRIBUTIVE_TREATMENT, " ");
  const up = claim.match(UP_WORDS)?.length ?? 0;
  const down = claim.match(DOWN_WORDS)?.length ?? 0;
  if (up > down) return "up";
  if (down > up) return "down";
  return "either";
}

export function threeFoldSeries(top: number, points: number): number[] {
  const values: number[] = [];
  for (let i = points - 1; i >= 0; i -= 1) values.push(round3(top / 3 ** i));
  return values;
}

/** A molar value in the most readable of nM / µM. */
export function readableMolar(value: number, unit: string): { value: number; unit: string } {
  const factor = MOLAR_FACTORS[unit];
  if (factor === undefined) return { value, unit };
  const molar = value * factor;
  if (molar < 1e-6) return { value: round3(molar / 1e-9), unit: "nM" };
  return { value: round3(molar / 1e-6), unit: "µM" };
}

export function ic50Threshold(
  text: string,
  concentrations: readonly { value: number; unit: string; text: string }[] = [],
): Threshold | null {
  return (
    readMetricThreshold(text, String.raw`(?:IC|EC|GI|CC)\s?-?\s?50s?`, "lt", canonicalConcentrationUnit) ??
    readPotencyWords(text) ??
    readBoundedConcentration(text, MOLAR) ??
    singleStatedConcentration(concentrations, MOLAR) ??
    null
  );
}

/**
 * "Does X inhibit S. aureus at 64 ug/mL?", "Does metformin reduce HepG2 viability at 10 mM?":
 * the one concentration a query names, with no comparator, is the one it asks about, read as
 * "at or below it".
 */
export function singleStatedConcentration(
  concentrations: readonly { value: number; unit: string; text: string }[],
  unit: RegExp,
): Threshold | undefined {
  if (concentrations.length !== 1) return undefined;
  const [q] = concentrations;
  if (!unit.test(q!.unit)) return undefined;
  return { comparator: "lte", value: q!.value, unit: q!.unit, text: q!.text };
}

export const VEHICLE_FAILURE: FailureCondition = {
  condition: "Vehicle (solvent-only) control outside its historical range",
  interpretation: "Run invalid; the lab repeats it.",
};
