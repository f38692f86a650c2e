import type { PlateFormat, Replicates } from "../plan.js";
import { containerType, type ContainerType } from "./containers.js";
import { ProtocolNotExpressibleError, ProtocolTooLargeError } from "./errors.js";
import type { IncubatorSetting } from "./types.js";

/** Hands out wells of one plate in a fixed order; null when the plate is full. */
export class WellAllocator {
  private cursor = 0;
  private readonly order: readonly number[];

  constructor(
    readonly type: ContainerType,
    usable?: readonly number[],
  ) {
    this.order = usable ?? Array.from({ length: type.wells }, (_, index) => index);
  }

  get capacity(): number {
    return this.order.length;
  }

  take(count: number): number[] | null {
    if (this.cursor + count > this.order.length) return null;
    const wells = this.order.slice(this.cursor, this.cursor + count);
    this.cursor += count;
    return wells;
  }

  /** The next well; callers check beforehand that the plate holds all they take. */
  takeOne(): number {
    const wells = this.take(1);
    if (!wells) throw new Error(`no well left on the ${this.type.shortname} plate`);
    return wells[0] as number;
  }

  /**
   * Contiguous wells that start a row when they would otherwise straddle one, so a series
   * reads left to right like a plate map. Only for allocators over the whole plate.
   */
  takeBlock(count: number): number[] | null {
    this.cursor = blockStart(this.cursor, count, this.type.columns);
    return this.take(count);
  }

  /** Wells that takeBlock would use up for these blocks, row padding included. */
  static blockFootprint(columns: number, blockSizes: readonly number[]): number {
    return blockSizes.reduce((cursor, size) => blockStart(cursor, size, columns) + size, 0);
  }
}

function blockStart(cursor: number, count: number, columns: number): number {
  const column = cursor % columns;
  const fitsInRow = count <= columns && column + count <= columns;
  return column !== 0 && !fitsInRow ? cursor + columns - column : cursor;
}

export type PlateRole = "clear" | "white" | "pcr";

const PLATES: Record<PlateFormat, Record<PlateRole, string>> = {
  "96-well": { clear: "96-flat", white: "96-flat-white-dc", pcr: "96-pcr" },
  "384-well": { clear: "384-flat", white: "384-flat-white-white-lv", pcr: "384-pcr" },
};

/** Clear plates for absorbance, white ones for luminescence (notes 5.3), PCR plates for cycling. */
export function assayPlate(format: PlateFormat, role: PlateRole): ContainerType {
  return containerType(PLATES[format][role]);
}

/** Refuses a layout that needs more wells than one plate of this type has. */
export function requireWellsOnPlate(field: string, needed: number, plateType: ContainerType): void {
  if (needed > plateType.wells) {
    throw new ProtocolTooLargeError(
      field,
      needed,
      plateType.wells,
      `wells of one ${plateType.shortname} plate`,
    );
  }
}

export function maxVolumeOf(type: ContainerType): number {
  if (type.maxVolumeUl === null) throw new Error(`${type.shortname} has no sourced maximum volume`);
  return type.maxVolumeUl;
}

/**
 * Incubator settings by temperature. warm_35 (34-36 °C) and warm_37 (36-38 °C) are Strateos
 * figures from the notes; the ambient and warm_30 bands are our assumption.
 */
const INCUBATORS: readonly { where: IncubatorSetting; min: number; max: number; centre: number }[] = [
  { where: "ambient", min: 20, max: 25, centre: 22.5 },
  { where: "warm_30", min: 29, max: 31, centre: 30 },
  { where: "warm_35", min: 34, max: 36, centre: 35 },
  { where: "warm_37", min: 36, max: 38, centre: 37 },
];

export function incubatorFor(temperatureC: number, field: string): IncubatorSetting {
  const candidates = INCUBATORS.filter((band) => temperatureC >= band.min && temperatureC <= band.max);
  candidates.sort((a, b) => Math.abs(a.centre - temperatureC) - Math.abs(b.centre - temperatureC));
  const best = candidates[0];
  if (!best) {
    throw new ProtocolNotExpressibleError([
      {
        field,
        message: `no incubator setting holds ${temperatureC} °C (available: 20-25, 29-31, 34-36 and 36-38 °C)`,
      },
    ]);
  }
  return best.where;
}

/** Each biological replicate draws on its own source container; technical ones share it. */
export interface ReplicateSlot {
  biological: number;
  technical: number;
  label: string;
}

export function replicateSlots(replicates: Replicates): ReplicateSlot[] {
  const slots: ReplicateSlot[] = [];
  for (let biological = 1; biological <= replicates.biological; biological += 1) {
    for (let technical = 1; technical <= replicates.technical; technical += 1) {
      slots.push({ biological, technical, label: `biological ${biological}, technical ${technical}` });
    }
  }
  return slots;
}

export const organismLabel = (organism: { name: string; strain: string | null }): string =>
  organism.strain ? `${organism.name} ${organism.strain}` : organism.name;

/** Concentrations as people write them: 64, 0.5, 0.003 (at most 4 significant figures). */
export const formatConcentration = (value: number): string => String(Number(value.toPrecision(4)));
