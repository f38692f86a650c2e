/**
 * Dilution series, highest concentration first, with numbers a person can read on a plate map.
 *
 * Rounding (decision): a value that is exact to 5 significant figures stays as it is (two-fold
 * series from 64 keep 0.125 and 0.03125, as in CLSI tables); any other value is rounded to 3
 * significant figures (3-fold from 10 gives 3.33, 1.11, 0.37). Half-log series whose top lies on
 * the 1-3-10 grid follow that grid (30, 10, 3, 1, 0.3 ...), the way half-log plates are written
 * in practice, instead of 30, 9.49, 3, 0.949; other tops are divided by sqrt(10) and rounded.
 *
 * Counts are computed before any list is built, so a hostile range (1e-300 to 1e300) costs one
 * logarithm and the caller can refuse it against PLAN_LIMITS.
 */

export type SeriesKind = "2-fold" | "3-fold" | "half-log";

export const SERIES_FACTOR: Readonly<Record<SeriesKind, number>> = {
  "2-fold": 2,
  "3-fold": 3,
  "half-log": Math.sqrt(10),
};

/** Rounds for reading (see the module comment). */
export function readable(value: number): number {
  if (!Number.isFinite(value) || value === 0) return value;
  const fine = Number(value.toPrecision(5));
  if (Math.abs(fine - value) <= Math.abs(value) * 1e-12) return fine;
  return Number(value.toPrecision(3));
}

/** The mantissa (1 or 3) and exponent of `value` when it lies on the 1-3-10 grid, else null. */
function gridPoint(value: number): { mantissa: 1 | 3; exponent: number } | null {
  let exponent = Math.floor(Math.log10(value));
  let mantissa = value / 10 ** exponent;
  if (mantissa >= 9.999999) {
    exponent += 1;
    mantissa /= 10;
  }
  if (Math.abs(mantissa - 1) < 1e-9) return { mantissa: 1, exponent };
  if (Math.abs(mantissa - 3) < 1e-9) return { mantissa: 3, exponent };
  return null;
}

function halfLogOnGrid(start: { mantissa: 1 | 3; exponent: number }, points: number): number[] {
  const out: number[] = [];
  let { mantissa, exponent } = start;
  for (let i = 0; i < points; i += 1) {
    // Parsing the decimal string avoids float noise such as 3 * 0.1 = 0.30000000000000004.
    out.push(Number(`${mantissa}e${exponent}`));
    if (mantissa === 3) {
      mantissa = 1;
    } else {
      mantissa = 3;
      exponent -= 1;
    }
  }
  return out;
}

/** `points` concentrations from `top` down by the factor of `kind`. */
export function dilutionSeries(top: number, kind: SeriesKind, points: number): number[] {
  if (kind === "half-log") {
    const start = gridPoint(top);
    if (start) return halfLogOnGrid(start, points);
  }
  const factor = SERIES_FACTOR[kind];
  return Array.from({ length: points }, (_, i) => readable(top / factor ** i));
}

/**
 * How many steps of `kind` fit from `max` down to `min` (both included when `min` lies on the
 * series). May be Infinity or huge for extreme ranges: compare with a limit before building.
 */
export function pointsBetween(max: number, min: number, kind: SeriesKind): number {
  const steps = Math.log(max / min) / Math.log(SERIES_FACTOR[kind]);
  // A small tolerance so a min that lies on the series (up to rounding) is counted.
  return Math.floor(steps + 1e-6) + 1;
}

/** `points` concentrations evenly spaced on a log scale from `max` to `min`. */
export function logSpaced(max: number, min: number, points: number): number[] {
  if (points === 1) return [readable(max)];
  const ratio = (max / min) ** (1 / (points - 1));
  return Array.from({ length: points }, (_, i) => readable(i === points - 1 ? min : max / ratio ** i));
}

/** Distinct values, highest first; how many duplicates were dropped. */
export function distinctDescending(values: readonly number[]): { values: number[]; duplicates: number } {
  const unique = [...new Set(values)].sort((a, b) => b - a);
  return { values: unique, duplicates: values.length - unique.length };
}
