/**
 * Shared plumbing of the warning rules.
 *
 * Every rule is a pure function of the normalised (possibly partial) request. Rule codes are
 * stable ids ("mic.inoculum_density"); the catalogue with each rule's source is WARNING_RULES in
 * ./index.ts. Thresholds are only those stated in docs/assay-notes.md §7
 * (CLSI M07/M02, dose-response design, MIQE), docs/api.md and docs/intake-model.md; where the notes give
 * a requirement but no number, the rule only checks that the request states it.
 */
import type { ExperimentTypeName } from "@petri/contracts/vocabulary";
import type { RequestWarning } from "../../contracts.js";
import type { NormalizedDraft } from "../model.js";
import type { SourcePaths } from "../normalize.js";

export interface RuleContext {
  draft: NormalizedDraft;
  paths: SourcePaths;
  experimentType?: ExperimentTypeName;
  now: Date;
  /** True when any string value of the request matches (case-insensitive prose search). */
  mentions(pattern: RegExp): boolean;
}

export type Rule = (ctx: RuleContext) => RequestWarning[];

export function warning(path: string, code: string, message: string, suggestion: string): RequestWarning {
  return { path, code, message, suggestion };
}

/** Formats a number for messages without float noise (0.30000000000000004 -> 0.3). */
export function num(value: number): string {
  if (value !== 0 && (Math.abs(value) >= 1e5 || Math.abs(value) < 1e-3)) return value.toExponential(1);
  return String(Number(value.toPrecision(3)));
}

/** Thresholds of success conditions whose metric matches (e.g. /IC50/), with their units. */
export function expectedThresholds(
  draft: NormalizedDraft,
  metric: RegExp,
): Array<{ value: number; unit: string; path: string }> {
  const out: Array<{ value: number; unit: string; path: string }> = [];
  (draft.acceptance_criteria.success_conditions ?? []).forEach((condition, index) => {
    if (!condition?.metric || !metric.test(condition.metric) || !condition.unit) return;
    const path = `acceptance_criteria.success_conditions[${index}].threshold`;
    const threshold = condition.threshold;
    if (typeof threshold === "number") out.push({ value: threshold, unit: condition.unit, path });
    else if (threshold && typeof threshold.min === "number" && typeof threshold.max === "number") {
      out.push(
        { value: threshold.min, unit: condition.unit, path },
        { value: threshold.max, unit: condition.unit, path },
      );
    }
  });
  return out;
}
