// Success conditions: the measurements of the condition's metric compared with its threshold.
import { compare } from "./compare.js";
import type { ObservedValue, RangeThreshold, SuccessCondition, SuccessConditionResult } from "./types.js";
import { isRange, key, meanOf, normaliseUnit, str, toNumber, type CleanMeasurement } from "./values.js";

export function evaluateSuccess(
  cond: SuccessCondition,
  ms: readonly CleanMeasurement[],
): SuccessConditionResult {
  const metric = str(cond?.metric).trim();
  const operator = str(cond?.operator).trim();
  const rawThreshold = cond?.threshold;
  const threshold: number | RangeThreshold | null = isRange(rawThreshold)
    ? { min: toNumber(rawThreshold.min)!, max: toNumber(rawThreshold.max)! }
    : toNumber(rawThreshold);
  const unit = normaliseUnit(cond?.unit) || null;
  const notes: string[] = [];
  const matching = ms.filter((m) => m.metricKey !== "" && m.metricKey === key(metric));
  const numeric = matching.filter((m) => m.value !== null);
  const values = numeric.map((m) => m.value!);
  const units = [...new Set(numeric.map((m) => m.unit))];
  const byCondGroups = new Map<string, number[]>();
  for (const m of numeric)
    byCondGroups.set(m.condition, [...(byCondGroups.get(m.condition) ?? []), m.value!]);
  const byCondition: Record<string, number> = {};
  if (byCondGroups.size > 1) for (const [c, vs] of byCondGroups) byCondition[c] = meanOf(vs);
  const compared = values.length > 0 ? meanOf(values) : null;
  const observed: ObservedValue = { count: values.length, values, compared, byCondition, units };
  const base = { metric, operator, threshold, unit, description: str(cond?.description), observed };

  if (matching.length > numeric.length) {
    notes.push(`${matching.length - numeric.length} measurement(s) of ${metric} have a non-numeric value`);
  }
  if (compared === null) {
    notes.push(metric ? `no numeric measurement for metric "${metric}"` : "success condition has no metric");
    return { ...base, unitCheck: "not_checked", outcome: "indeterminate", notes };
  }
  if (values.length > 1) notes.push(`${values.length} values: compared their mean`);
  if (byCondGroups.size > 1) {
    notes.push(`values pooled across ${byCondGroups.size} conditions; see per-condition means`);
  }

  let unitCheck: SuccessConditionResult["unitCheck"] = "not_checked";
  if (unit !== null) {
    const reported = units.filter((u) => u !== "");
    if (reported.some((u) => u !== unit)) {
      unitCheck = "mismatch";
      notes.push(
        `unit mismatch: criterion in "${unit}", measurements in ${reported.map((u) => `"${u}"`).join(", ")}`,
      );
      return { ...base, unitCheck, outcome: "indeterminate", notes };
    }
    if (reported.length < units.length) notes.push("some measurements report no unit; assumed to match");
    if (reported.length > 0) unitCheck = "match";
  }

  const cmp = compare(operator, compared, rawThreshold);
  if (!cmp.ok) {
    notes.push(cmp.reason);
    return { ...base, unitCheck, outcome: "indeterminate", notes };
  }
  return { ...base, unitCheck, outcome: cmp.met ? "met" : "not_met", notes };
}
