// Contingency tables for chi-square and Fisher's exact tests, built from count measurements.
import type { Measurement } from "./types.js";
import { cleanMeasurements, type CleanMeasurement } from "./values.js";

/** Units accepted as "count" for building a contingency table. */
export const COUNT_UNITS: ReadonlySet<string> = new Set([
  "count",
  "counts",
  "n",
  "number",
  "events",
  "cfu",
  "colonies",
  "cells",
  "individuals",
  "subjects",
]);

/**
 * Contingency table from count measurements. Expected shape: one measurement per cell with
 * `condition` = group (row), `metric` = category (column), `value` = count (non-negative integer).
 * Measurements whose unit is a count unit (COUNT_UNITS) are used; if none have one, all measurements
 * are used provided every value is a non-negative integer. Repeated (condition, metric) cells are
 * summed; absent cells count as 0 (noted). Rows and columns keep first-appearance order.
 */
export function buildContingencyTable(
  measurements: readonly Measurement[],
): { table: number[][]; rows: string[]; cols: string[]; notes: string[] } | { reason: string } {
  return contingency(cleanMeasurements({ structured_data: { measurements } }));
}

export function contingency(
  all: readonly CleanMeasurement[],
): { table: number[][]; rows: string[]; cols: string[]; notes: string[] } | { reason: string } {
  const notes: string[] = [];
  let ms = all.filter((m) => COUNT_UNITS.has(m.unit.toLowerCase()));
  if (ms.length === 0) ms = all.slice();
  if (ms.length === 0) return { reason: "no count measurements" };
  if (ms.some((m) => m.value === null || !Number.isInteger(m.value) || m.value < 0)) {
    return {
      reason:
        "count measurements must be non-negative integers (metric = category, condition = group, value = count)",
    };
  }
  const rows: string[] = [];
  const cols: string[] = [];
  const cells = new Map<string, number>();
  for (const m of ms) {
    if (!rows.includes(m.condition)) rows.push(m.condition);
    if (!cols.includes(m.metric)) cols.push(m.metric);
    const ck = JSON.stringify([m.condition, m.metric]);
    if (cells.has(ck)) notes.push(`repeated cell (${m.condition}, ${m.metric}) summed`);
    cells.set(ck, (cells.get(ck) ?? 0) + m.value!);
  }
  if (rows.length < 2 || cols.length < 2) {
    return {
      reason: `contingency table is ${rows.length} x ${cols.length}; needs at least 2 x 2 (condition x metric)`,
    };
  }
  const table = rows.map((r) =>
    cols.map((c) => {
      const v = cells.get(JSON.stringify([r, c]));
      if (v === undefined) notes.push(`missing cell (${r}, ${c}) counted as 0`);
      return v ?? 0;
    }),
  );
  return { table, rows, cols, notes };
}
