/**
 * Concentration units, only as far as the assay rules need them: molar units (pM … M) and
 * mass per volume (ng/mL … g/L). Two values are comparable when they share a dimension.
 * Unknown units yield null and the rules that need a conversion are skipped.
 */

export type Dimension = "molar" | "mass_per_volume";

export interface Converted {
  dimension: Dimension;
  /** Value in the dimension's base unit (mol/L or g/L). */
  value: number;
}

const MOLAR: Record<string, number> = { pm: 1e-12, nm: 1e-9, um: 1e-6, mm: 1e-3, m: 1 };
const MASS: Record<string, number> = { pg: 1e-12, ng: 1e-9, ug: 1e-6, mg: 1e-3, g: 1 };
const VOLUME: Record<string, number> = { ul: 1e-6, ml: 1e-3, l: 1 };

function canonicalUnit(unit: string): string {
  return unit
    .normalize("NFKC")
    .trim()
    .replace(/[µμ]/g, "u")
    .replace(/mol\/l$/i, "M")
    .replace(/\s+/g, "")
    .toLowerCase();
}

export function toBase(value: number, unit: string): Converted | null {
  const u = canonicalUnit(unit);
  if (u in MOLAR) return { dimension: "molar", value: value * (MOLAR[u] as number) };
  const massPerVolume = /^([pnum]?g)\/([um]?l)$/.exec(u);
  if (massPerVolume) {
    const mass = MASS[massPerVolume[1] as string];
    const volume = VOLUME[massPerVolume[2] as string];
    if (mass !== undefined && volume !== undefined)
      return { dimension: "mass_per_volume", value: (value * mass) / volume };
  }
  return null;
}

/** a / b when both convert to the same dimension, else null. */
export function ratio(a: { value: number; unit: string }, b: { value: number; unit: string }): number | null {
  const x = toBase(a.value, a.unit);
  const y = toBase(b.value, b.unit);
  if (!x || !y || x.dimension !== y.dimension || y.value === 0) return null;
  return x.value / y.value;
}
