// Reading loosely typed stored JSON: strings, numbers, units and measurements, never throwing.
import type { Measurement, RangeThreshold, ResultsInput } from "./types.js";

export const str = (v: unknown): string => (typeof v === "string" ? v : "");
/** Case- and space-insensitive comparison key of a name. */
export const key = (v: unknown): string => str(v).trim().toLowerCase();

/** Unit normalisation: NFKC (micro sign -> Greek mu), trimmed, inner whitespace removed. Case is kept (mM != mm). */
export function normaliseUnit(u: unknown): string {
  return str(u).normalize("NFKC").trim().replace(/\s+/g, "");
}

/** A finite number from a number or a numeric string; null otherwise. */
export function toNumber(v: unknown): number | null {
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v === "string" && v.trim() !== "") {
    const n = Number(v.trim());
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

export const meanOf = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

export function isRange(t: unknown): t is RangeThreshold {
  return (
    typeof t === "object" &&
    t !== null &&
    toNumber((t as { min?: unknown }).min) !== null &&
    toNumber((t as { max?: unknown }).max) !== null
  );
}

export interface CleanMeasurement {
  readonly metric: string;
  readonly metricKey: string;
  readonly value: number | null;
  readonly unit: string;
  readonly condition: string;
}

export function cleanMeasurements(results: ResultsInput | null | undefined): CleanMeasurement[] {
  const raw = results?.structured_data?.measurements;
  if (!Array.isArray(raw)) return [];
  const out: CleanMeasurement[] = [];
  for (const m of raw as unknown[]) {
    if (typeof m !== "object" || m === null) continue;
    const r = m as Measurement;
    out.push({
      metric: str(r.metric).trim(),
      metricKey: key(r.metric),
      value: toNumber(r.value),
      unit: normaliseUnit(r.unit),
      condition: str(r.condition).trim(),
    });
  }
  return out;
}
