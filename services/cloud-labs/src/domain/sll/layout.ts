/**
 * Plate layout: series (blocks of wells) packed in row-major order, each block on one plate,
 * a new plate when the next block does not fit. Wells are named "A1".."P24".
 */
import type { PlateFormat } from "../plan.js";
import { SllNotExpressibleError } from "./errors.js";

export interface Geometry {
  rows: number;
  columns: number;
}

export const GEOMETRY: Readonly<Record<PlateFormat, Geometry>> = {
  "96-well": { rows: 8, columns: 12 },
  "384-well": { rows: 16, columns: 24 },
};

/** Working volumes are written for 96-well plates; 384-well wells hold a quarter. */
export function volumeScale(format: PlateFormat): number {
  return format === "384-well" ? 0.25 : 1;
}

export function wellName(row: number, column: number): string {
  return `${String.fromCharCode(65 + row)}${column + 1}`;
}

/** Row-major wells; with `moat`, the outer ring is left out (it holds medium against edge effects). */
export function usableWells(geometry: Geometry, moat: boolean): string[] {
  const wells: string[] = [];
  const edge = moat ? 1 : 0;
  for (let row = edge; row < geometry.rows - edge; row++) {
    for (let column = edge; column < geometry.columns - edge; column++) wells.push(wellName(row, column));
  }
  return wells;
}

export function outerWells(geometry: Geometry): string[] {
  const inner = new Set(usableWells(geometry, true));
  return usableWells(geometry, false).filter((well) => !inner.has(well));
}

export interface PlacedBlock {
  /** 1-based plate number. */
  plate: number;
  wells: string[];
}

/** Places blocks of the given sizes; a block never spans two plates. */
export function packBlocks(sizes: readonly number[], wells: readonly string[], field: string): PlacedBlock[] {
  const placed: PlacedBlock[] = [];
  let plate = 1;
  let next = 0;
  for (const size of sizes) {
    if (size > wells.length) {
      throw new SllNotExpressibleError(
        field,
        `a series needs ${size} wells but a plate has ${wells.length} usable wells`,
      );
    }
    if (next + size > wells.length) {
      plate++;
      next = 0;
    }
    placed.push({ plate, wells: wells.slice(next, next + size) });
    next += size;
  }
  return placed;
}

export function plateCount(blocks: readonly PlacedBlock[]): number {
  return blocks.reduce((max, block) => Math.max(max, block.plate), 0);
}

/** "A1 to A10" (row-major), or the single well. */
export function wellSpan(wells: readonly string[]): string {
  if (wells.length === 0) return "no wells";
  return wells.length === 1 ? wells[0]! : `${wells[0]} to ${wells[wells.length - 1]}`;
}
