/**
 * What the estimator needs from a request, and a lenient extractor that takes it from a
 * partial, possibly invalid request body (POST /estimate accepts partial bodies).
 */
import {
  EXPERIMENT_TYPES,
  type ExperimentTypeName,
  PRIVACY_LEVELS,
  type PrivacyLevelName,
  TURNAROUND_PRIORITIES,
  type TurnaroundPriorityName,
} from "@petri/contracts/vocabulary";
import { getTemplate } from "../templates/index.js";
import type { PackageLevel, WorkDimensions } from "./model.js";
import { COUNT_LIMITS, DEFAULT_REPLICATES, PACKAGE_LEVELS } from "./model.js";

export interface EstimateInput {
  /** null: unknown; priced with the template's type, else as CUSTOM. */
  experiment_type: ExperimentTypeName | null;
  /** A catalogue template id, or null. */
  template_id: string | null;
  technical_replicates: number;
  biological_replicates: number;
  /** Counts that size the work; absent ones take the type's reference values. */
  work: WorkDimensions;
  package_level: PackageLevel;
  priority: TurnaroundPriorityName;
  privacy: PrivacyLevelName;
}

/** What an empty body gives. */
export const DEFAULT_ESTIMATE_INPUT: Readonly<EstimateInput> = Object.freeze({
  experiment_type: null,
  template_id: null,
  technical_replicates: DEFAULT_REPLICATES.technical,
  biological_replicates: DEFAULT_REPLICATES.biological,
  work: Object.freeze({}),
  package_level: "L1_BASIC_QC",
  priority: "standard",
  privacy: "open",
});

type Rec = Record<string, unknown>;

const rec = (v: unknown): Rec | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Rec) : undefined;

/** Own property only, so "constructor" or "__proto__" never reach the prototype. */
const get = (o: Rec | undefined, key: string): unknown =>
  o !== undefined && Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;

const at = (o: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((cur, key) => get(rec(cur), key), o);

/** A positive whole count (numbers or numeric strings; fractions round down), clamped; else undefined. */
export function toCount(v: unknown, max: number = COUNT_LIMITS.max_count): number | undefined {
  const n =
    typeof v === "number" ? v : typeof v === "string" && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : NaN;
  if (Number.isNaN(n) || n < 1) return undefined;
  return Math.min(Math.floor(n), max);
}

/** Length of a non-empty array, clamped; else undefined. */
const len = (v: unknown): number | undefined =>
  Array.isArray(v) && v.length > 0 ? Math.min(v.length, COUNT_LIMITS.max_count) : undefined;

const first = <T>(...candidates: Array<T | undefined>): T | undefined =>
  candidates.find((c) => c !== undefined);

function oneOf<T extends string>(
  allowed: readonly T[],
  v: unknown,
  normalise: (s: string) => string,
): T | undefined {
  if (typeof v !== "string") return undefined;
  const s = normalise(v.trim());
  return allowed.find((a) => a === s);
}

const lower = (s: string) => s.toLowerCase();

export function parseExperimentType(v: unknown): ExperimentTypeName | undefined {
  return oneOf(EXPERIMENT_TYPES, v, (s) => s.toUpperCase());
}

/** "L2_INTERPRETATION", "l2_interpretation" or just "L2". */
export function parsePackageLevel(v: unknown): PackageLevel | undefined {
  if (typeof v !== "string") return undefined;
  const s = v.trim().toUpperCase();
  return PACKAGE_LEVELS.find((level) => level === s || level.slice(0, 2) === s);
}

/** The type-specific sections of the intake model, per type (first one present wins). */
const SECTION_KEYS: Readonly<Record<ExperimentTypeName, readonly string[]>> = {
  SANGER_PLASMID_VERIFICATION: ["sanger"],
  QPCR_EXPRESSION: ["qpcr"],
  CELL_VIABILITY_IC50: ["cell_viability"],
  ENZYME_INHIBITION_IC50: ["enzyme_inhibition"],
  MICROBIAL_GROWTH_MATRIX: ["microbial_growth"],
  MIC_MBC_ASSAY: ["mic_mbc", "mic_mbc_assay"],
  ZONE_OF_INHIBITION: ["zone_of_inhibition"],
  CUSTOM: ["custom_protocol"],
};

/** The one type whose section the body carries, if exactly one does. */
function typeFromSections(body: Rec | undefined): ExperimentTypeName | undefined {
  const present = EXPERIMENT_TYPES.filter((t) =>
    SECTION_KEYS[t].some((k) => rec(get(body, k)) !== undefined),
  );
  return present.length === 1 ? present[0] : undefined;
}

/** Two-fold series from {min, max}: floor(log2(max / min)) + 1 concentrations. */
function twoFoldPoints(range: unknown): number | undefined {
  const r = rec(range);
  const min = get(r, "min");
  const max = get(r, "max");
  const series = get(r, "dilution_series");
  if (typeof min !== "number" || typeof max !== "number" || !(min > 0) || !(max >= min)) return undefined;
  if (series !== undefined && series !== "2-fold") return undefined;
  return toCount(Math.floor(Math.log2(max / min) + 1e-9) + 1);
}

function matrixConditions(matrix: unknown): number | undefined {
  if (!Array.isArray(matrix)) return undefined;
  const counts = matrix.map((variable) => len(get(rec(variable), "values"))).filter((n) => n !== undefined);
  if (counts.length === 0) return undefined;
  return Math.min(
    counts.reduce((a, b) => a * b, 1),
    COUNT_LIMITS.max_count,
  );
}

function workFromSection(type: ExperimentTypeName, body: Rec | undefined): WorkDimensions {
  const s = (key: string) => rec(get(body, key));
  switch (type) {
    case "SANGER_PLASMID_VERIFICATION": {
      const x = s("sanger");
      return { samples: toCount(get(x, "number_of_samples")), reads_per_sample: len(get(x, "primers")) };
    }
    case "QPCR_EXPRESSION": {
      const x = s("qpcr");
      return {
        samples: toCount(get(x, "number_of_samples")),
        targets: len(get(x, "targets")),
        reference_genes: len(get(x, "housekeeping_genes")),
      };
    }
    case "CELL_VIABILITY_IC50": {
      const x = s("cell_viability");
      return {
        compounds: len(get(x, "compounds")),
        dose_points: first(
          toCount(at(x, "dose_range", "points")),
          len(at(x, "dose_range", "concentrations")),
        ),
      };
    }
    case "ENZYME_INHIBITION_IC50": {
      const x = s("enzyme_inhibition");
      return { compounds: len(get(x, "inhibitors")), dose_points: len(get(x, "inhibitor_concentrations")) };
    }
    case "MICROBIAL_GROWTH_MATRIX": {
      const x = s("microbial_growth");
      return {
        organisms: len(get(x, "organisms")),
        conditions: matrixConditions(get(x, "condition_matrix")),
      };
    }
    case "MIC_MBC_ASSAY": {
      const x = s("mic_mbc");
      const cloud = s("mic_mbc_assay");
      const cloudCompounds = get(cloud, "test_compounds");
      const cloudPoints = Array.isArray(cloudCompounds)
        ? cloudCompounds
            .map((c) => len(get(rec(c), "concentrations_ug_ml")) ?? 0)
            .reduce((a, b) => Math.max(a, b), 0)
        : 0;
      return {
        organisms: first(len(get(x, "organisms")), len(get(cloud, "target_organisms"))),
        compounds: first(len(get(x, "compounds")), len(cloudCompounds)),
        dose_points: first(
          len(get(x, "concentrations")),
          twoFoldPoints(get(x, "concentration_range")),
          cloudPoints > 0 ? cloudPoints : undefined,
        ),
      };
    }
    case "ZONE_OF_INHIBITION": {
      const x = s("zone_of_inhibition");
      return {
        organisms: len(get(x, "organisms")),
        compounds: len(get(x, "compounds")),
        dose_points: len(get(x, "disk_loading")),
      };
    }
    case "CUSTOM": {
      const x = first(s("custom_protocol"), rec(at(body, "protocol", "custom_protocol")));
      return { samples: toCount(get(x, "number_of_samples")) };
    }
  }
}

/** Dimensions a template's parameters state (used where the type section is silent). */
function workFromTemplateParameters(parameters: unknown): WorkDimensions {
  const p = rec(parameters);
  const direction = get(p, "read_direction");
  return {
    dose_points: toCount(get(p, "number_of_concentrations")),
    samples: toCount(get(p, "number_of_samples")),
    reads_per_sample:
      direction === "both" ? 2 : direction === "forward" || direction === "reverse" ? 1 : undefined,
  };
}

function definedOnly(work: WorkDimensions): WorkDimensions {
  return Object.fromEntries(Object.entries(work).filter(([, v]) => v !== undefined)) as WorkDimensions;
}

function extract(raw: unknown): EstimateInput {
  const body = rec(raw);
  const protocol = rec(get(body, "protocol"));

  const template = getTemplate(first(get(protocol, "template_id"), get(body, "template_id")));
  const experiment_type =
    first(
      parseExperimentType(get(body, "experiment_type")),
      template?.experiment_type,
      typeFromSections(body),
    ) ?? null;

  const replicateSources = [rec(get(body, "replicates")), rec(get(protocol, "replicates"))];
  const replicates = (short: string, long: string) =>
    first(
      ...replicateSources.flatMap((r) => [
        toCount(get(r, short), COUNT_LIMITS.max_replicates),
        toCount(get(r, long), COUNT_LIMITS.max_replicates),
      ]),
    );

  const fromSection = experiment_type === null ? {} : definedOnly(workFromSection(experiment_type, body));
  const fromTemplate = template
    ? definedOnly(workFromTemplateParameters(get(protocol, "template_parameters")))
    : {};

  return {
    experiment_type,
    template_id: template?.id ?? null,
    technical_replicates: replicates("technical", "technical_replicates") ?? DEFAULT_REPLICATES.technical,
    biological_replicates: replicates("biological", "biological_replicates") ?? DEFAULT_REPLICATES.biological,
    work: { ...fromTemplate, ...fromSection },
    package_level: parsePackageLevel(at(body, "deliverables", "minimum_package_level")) ?? "L1_BASIC_QC",
    priority:
      first(
        oneOf(TURNAROUND_PRIORITIES, at(body, "turnaround_budget", "priority"), lower),
        oneOf(TURNAROUND_PRIORITIES, get(body, "turnaround_priority"), lower),
        oneOf(TURNAROUND_PRIORITIES, at(body, "constraints", "turnaround_priority"), lower),
      ) ?? "standard",
    privacy: oneOf(PRIVACY_LEVELS, get(body, "privacy"), lower) ?? "open",
  };
}

/**
 * Takes what it can from a request body that may be partial or invalid, and never throws.
 * Both spellings of the intake model are read (turnaround_budget.priority or
 * turnaround_priority; replicates.technical or technical_replicates, at the top level or under
 * protocol); anything unreadable falls back to DEFAULT_ESTIMATE_INPUT's value. The type is the
 * experiment_type if valid, else the template's type, else the one type section present.
 */
export function estimateInputFrom(raw: unknown): EstimateInput {
  try {
    return extract(raw);
  } catch {
    // Hostile inputs (throwing getters, proxies) get the defaults rather than an exception.
    return { ...DEFAULT_ESTIMATE_INPUT, work: {} };
  }
}
