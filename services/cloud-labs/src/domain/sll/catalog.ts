/**
 * The ECL catalog names Petri refers to. None of them is verified against the ECL catalog here
 * (the notes list no model names): "96-well UV-Star Plate" comes from the task's own example,
 * the ones marked [recalled] are from memory of ECL documentation, and the ones marked
 * [placeholder] are descriptive names in the same pattern. All must be checked before a real ECL
 * account is connected; the Petri sandbox lab does not resolve them.
 */
import type { PlateFormat } from "../plan.js";
import type { SllModel } from "./types.js";

export interface ContainerModel {
  name: string;
  rows: number;
  columns: number;
  /** Only where the name itself states it. */
  max_volume_ul: number | null;
}

const plate96 = { rows: 8, columns: 12 } as const;
const plate384 = { rows: 16, columns: 24 } as const;

export const CONTAINER_MODELS = {
  /** From the task's example. Clear, UV-transparent: absorbance reads. */
  "clear-96": { name: "96-well UV-Star Plate", ...plate96, max_volume_ul: null },
  /** [placeholder] */
  "clear-384": { name: "384-well UV-Star Plate", ...plate384, max_volume_ul: null },
  /** [placeholder] Opaque white: luminescence. */
  "white-96": { name: "96-well white flat-bottom plate", ...plate96, max_volume_ul: null },
  /** [placeholder] */
  "white-384": { name: "384-well white flat-bottom plate", ...plate384, max_volume_ul: null },
  /** [placeholder] Opaque black: fluorescence. */
  "black-96": { name: "96-well black flat-bottom plate", ...plate96, max_volume_ul: null },
  /** [placeholder] */
  "black-384": { name: "384-well black flat-bottom plate", ...plate384, max_volume_ul: null },
  /** [recalled] Dilution series are prepared here whatever the assay plate's format. */
  "deep-well-96": { name: "96-well 2mL Deep Well Plate", ...plate96, max_volume_ul: 2000 },
  /** [recalled] */
  "pcr-96": { name: "96-well PCR Plate", ...plate96, max_volume_ul: null },
  /** [placeholder] */
  "pcr-384": { name: "384-well PCR Plate", ...plate384, max_volume_ul: null },
  /** [recalled] A single-well agar plate (disk diffusion). */
  "agar-plate": { name: "Omni Tray Sterile Media Plate", rows: 1, columns: 1, max_volume_ul: null },
} as const satisfies Record<string, ContainerModel>;

export type ContainerRole = keyof typeof CONTAINER_MODELS;

/** [recalled] ECL's purified-water model. */
export const WATER_MODEL_NAME = "Milli-Q water";

export function plateModel(role: ContainerRole): SllModel {
  return { model: ["Container", "Plate"], name: CONTAINER_MODELS[role].name };
}

export function containerByName(name: string): ContainerModel | undefined {
  return Object.values(CONTAINER_MODELS).find((container) => container.name === name);
}

/** The read plate for a detection method, in the plan's format. */
export function readPlateRole(format: PlateFormat, detection: string): ContainerRole {
  const size = format === "384-well" ? "384" : "96";
  if (detection === "luminescence") return `white-${size}`;
  if (detection === "fluorescence") return `black-${size}`;
  return `clear-${size}`;
}
