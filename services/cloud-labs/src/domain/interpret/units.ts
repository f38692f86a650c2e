/**
 * Conversions into the fixed units of a LabPlan (plan.ts): antimicrobials in µg/mL, compounds on
 * cells and enzymes in µM, disk loadings in µg, step durations in minutes, temperatures in °C.
 * A unit that does not convert yields null; the caller turns that into a problem naming the field.
 * Mass and molar concentrations do not convert into each other (that needs a molecular weight
 * the intake does not carry).
 */

function canonicalUnit(unit: string): string {
  return unit.normalize("NFKC").trim().replace(/[µμ]/g, "u").replace(/\s+/g, "").toLowerCase();
}

const MASS_IN_UG: Record<string, number> = { pg: 1e-6, ng: 1e-3, ug: 1, mcg: 1, mg: 1e3, g: 1e6 };
const VOLUME_IN_ML: Record<string, number> = { ul: 1e-3, ml: 1, l: 1e3 };
const MOLAR_IN_UM: Record<string, number> = { pm: 1e-6, nm: 1e-3, um: 1, mm: 1e3, m: 1e6 };

function finitePositive(value: number): number | null {
  return Number.isFinite(value) && value > 0 ? value : null;
}

/** Factor that turns a value in `unit` into µg/mL, or null for other dimensions. */
export function massConcentrationFactor(unit: string): number | null {
  const match = /^([a-z]+)\/([a-z]+)$/.exec(canonicalUnit(unit));
  if (!match) return null;
  const mass = MASS_IN_UG[match[1] as string];
  const volume = VOLUME_IN_ML[match[2] as string];
  return mass !== undefined && volume !== undefined ? mass / volume : null;
}

/** Factor that turns a value in `unit` (pM ... M, also "mmol/L") into µM, or null. */
export function molarFactor(unit: string): number | null {
  const u = canonicalUnit(unit).replace(/^([pnum]?)mol\/l$/, "$1m");
  return MOLAR_IN_UM[u] ?? null;
}

/** Factor that turns an amount in `unit` (pg ... g) into µg, or null. */
export function massFactor(unit: string): number | null {
  return MASS_IN_UG[canonicalUnit(unit)] ?? null;
}

/** value x factor, or null when the result leaves the positive finite range (overflow, underflow). */
export function scaled(value: number, factor: number): number | null {
  return finitePositive(value * factor);
}

const MINUTES: Record<string, number> = { seconds: 1 / 60, minutes: 1, hours: 60, days: 1440 };

export function toMinutes(value: number, unit: "seconds" | "minutes" | "hours" | "days"): number {
  return value * (MINUTES[unit] as number);
}

export function toCelsius(value: number, unit: "C" | "F" | "K"): number {
  if (unit === "F") return ((value - 32) * 5) / 9;
  if (unit === "K") return value - 273.15;
  return value;
}
