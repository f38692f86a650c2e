/**
 * Container types (Strateos shortnames). Well counts, maximum and dead volumes come from
 * docs/assay-notes.md section 5.3 (read there from autoprotocol-python
 * container_type.py). A value the notes do not give is null and `unsourced` names it: the
 * generator never relies on a null volume, and the checker cannot check one.
 */
export interface ContainerType {
  shortname: string;
  wells: number;
  columns: number;
  maxVolumeUl: number | null;
  deadVolumeUl: number | null;
  /** Lowest volume worth aspirating down to, where the notes give one (above the dead volume). */
  safeMinVolumeUl: number | null;
  /** Which figures are not from the notes. */
  unsourced: readonly ("columns" | "maxVolumeUl" | "deadVolumeUl")[];
}

const plate96 = { wells: 96, columns: 12 } as const;
const plate384 = { wells: 384, columns: 24 } as const;

function entry(
  shortname: string,
  geometry: { wells: number; columns: number },
  maxVolumeUl: number | null,
  deadVolumeUl: number | null,
  extra: { safeMinVolumeUl?: number; columnsUnsourced?: boolean } = {},
): ContainerType {
  const unsourced: ContainerType["unsourced"][number][] = [];
  if (extra.columnsUnsourced) unsourced.push("columns");
  if (maxVolumeUl === null) unsourced.push("maxVolumeUl");
  if (deadVolumeUl === null) unsourced.push("deadVolumeUl");
  return {
    shortname,
    ...geometry,
    maxVolumeUl,
    deadVolumeUl,
    safeMinVolumeUl: extra.safeMinVolumeUl ?? null,
    unsourced,
  };
}

export const CONTAINER_TYPES: Readonly<Record<string, ContainerType>> = Object.freeze(
  Object.fromEntries(
    [
      entry("96-flat", plate96, 340, 25, { safeMinVolumeUl: 65 }),
      entry("96-flat-uv", plate96, 340, 25),
      entry("96-flat-clear-clear-tc", plate96, 340, null),
      entry("96-flat-white-dc", plate96, 320, 50),
      entry("96-pcr", plate96, 160, 3, { safeMinVolumeUl: 5 }),
      entry("96-deep", plate96, 2000, null),
      entry("96-v-kf", plate96, 200, null),
      entry("96-well-v-bottom", plate96, 200, null),
      entry("96-ubottom-clear-tc", plate96, 320, null),
      entry("384-flat", plate384, 90, null),
      entry("384-pcr", plate384, 40, null),
      entry("384-flat-white-white-lv", plate384, 40, null),
      entry("micro-1.5", { wells: 1, columns: 1 }, 1500, 20),
      entry("micro-2.0", { wells: 1, columns: 1 }, 2000, 20),
      // Agar plates and reservoirs: the notes name them only; the well count is read from the
      // shortname and the 2 x 3 arrangement of a 6-well plate is ours.
      entry("6-flat", { wells: 6, columns: 3 }, null, null, { columnsUnsourced: true }),
      entry("6-flat-tc", { wells: 6, columns: 3 }, null, null, { columnsUnsourced: true }),
      entry("1-flat", { wells: 1, columns: 1 }, null, null),
    ].map((type) => [type.shortname, Object.freeze(type)]),
  ),
);

export function containerType(shortname: string): ContainerType {
  const type = CONTAINER_TYPES[shortname];
  if (!type) throw new RangeError(`unknown container type ${shortname}`);
  return type;
}

export const rowsOf = (type: ContainerType): number => type.wells / type.columns;

/** Volume a source well should keep so the last aspiration still works. */
export function reserveVolumeUl(type: ContainerType): number {
  if (type.safeMinVolumeUl !== null) return type.safeMinVolumeUl;
  if (type.deadVolumeUl !== null) return type.deadVolumeUl;
  // Our assumption where the notes give no dead volume: 5% of the well.
  return (type.maxVolumeUl ?? 0) * 0.05;
}

/** Robotized indices of the outer ring (the edge moat of a cell plate). */
export function edgeWells(type: ContainerType): number[] {
  const rows = rowsOf(type);
  const edge: number[] = [];
  for (let index = 0; index < type.wells; index += 1) {
    const row = Math.floor(index / type.columns);
    const column = index % type.columns;
    if (row === 0 || row === rows - 1 || column === 0 || column === type.columns - 1) edge.push(index);
  }
  return edge;
}

export function innerWells(type: ContainerType): number[] {
  const edge = new Set(edgeWells(type));
  return Array.from({ length: type.wells }, (_, index) => index).filter((index) => !edge.has(index));
}

/** "A1" style name of a robotized index, for well labels. */
export function humanWell(type: ContainerType, index: number): string {
  const row = Math.floor(index / type.columns);
  const column = index % type.columns;
  return `${String.fromCharCode(65 + row)}${column + 1}`;
}
