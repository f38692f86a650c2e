import type { Aliquot, Quantity } from "./types.js";

/**
 * Volumes are rounded to 0.01 µL: finer figures mean nothing to a liquid handler and would make
 * golden files depend on floating-point noise.
 */
export function roundMicroliters(value: number): number {
  return Math.round(value * 100) / 100;
}

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite quantity: ${value}`);
  const rounded = Math.round(value * 1e6) / 1e6;
  // Normalise -0 so "-0:microliter" never appears.
  return String(rounded === 0 ? 0 : rounded);
}

export const microliters = (value: number): Quantity => `${formatNumber(roundMicroliters(value))}:microliter`;
/** A liquid_handle transport that takes liquid out of its location. */
export const aspirate = (value: number): Quantity => `-${formatNumber(roundMicroliters(value))}:microliter`;
export const hours = (value: number): Quantity => `${formatNumber(value)}:hour`;
export const minutes = (value: number): Quantity => `${formatNumber(value)}:minute`;
export const seconds = (value: number): Quantity => `${formatNumber(value)}:second`;
export const celsius = (value: number): Quantity => `${formatNumber(value)}:celsius`;
export const nanometers = (value: number): Quantity => `${formatNumber(value)}:nanometer`;
export const gForce = (value: number): Quantity => `${formatNumber(value)}:g`;

export const aliquot = (ref: string, index: number): Aliquot => `${ref}/${index}`;

export interface ParsedQuantity {
  value: number;
  unit: string;
}

const QUANTITY = /^(-?\d+(?:\.\d+)?):([a-z_^/0-9-]+)$/i;

export function parseQuantity(text: string): ParsedQuantity | null {
  const match = QUANTITY.exec(text);
  if (!match) return null;
  return { value: Number(match[1]), unit: match[2] as string };
}

const MICROLITERS_PER_UNIT: Record<string, number> = {
  nanoliter: 0.001,
  microliter: 1,
  milliliter: 1000,
  liter: 1_000_000,
};

/** Signed volume in µL, or null when the text is not a volume. */
export function volumeInMicroliters(text: string): number | null {
  const parsed = parseQuantity(text);
  if (!parsed) return null;
  const factor = MICROLITERS_PER_UNIT[parsed.unit];
  return factor === undefined ? null : parsed.value * factor;
}

export interface ParsedAliquot {
  ref: string;
  index: number;
}

const ALIQUOT = /^([A-Za-z0-9_]+)\/(\d+)$/;

export function parseAliquot(text: string): ParsedAliquot | null {
  const match = ALIQUOT.exec(text);
  if (!match) return null;
  return { ref: match[1] as string, index: Number(match[2]) };
}
