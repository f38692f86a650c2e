/**
 * The Autoprotocol subset we emit (docs/assay-notes.md section 5). Only the ops
 * and fields listed here ever leave the generator; AUTOPROTOCOL_SCHEMA describes exactly this
 * shape and the checker understands exactly these ops.
 *
 * Conventions (notes 5.2): quantities are "<number>:<unit>" strings; an aliquot is
 * "<ref>/<robotized index>" (row-major, 0-based); plate-reader ops list bare index strings in
 * `wells` next to `object`; spectrophotometry mode params list aliquots.
 */

/** "<number>:<unit>", e.g. "50:microliter", "-50:microliter", "18:hour". */
export type Quantity = string;
/** "<ref name>/<robotized well index>", e.g. "mic_plate/13". */
export type Aliquot = string;

export type StorageCondition = "cold_80" | "cold_20" | "cold_4" | "ambient";
export type IncubatorSetting = "ambient" | "warm_30" | "warm_35" | "warm_37";
export type LidType = "standard" | "universal" | "low_evaporation";
export type SealType = "ultra-clear" | "foil" | "breathable";

interface RefDisposal {
  /** Where the container goes after the run; exclusive with discard. */
  store?: { where: StorageCondition };
  discard?: true;
}

/** A container the lab already holds (requester material or a lab-prepared working solution). */
export interface ExistingRef extends RefDisposal {
  id: string;
}

/** A fresh, empty container of a known type. */
export interface NewRef extends RefDisposal {
  new: string;
}

export type Ref = ExistingRef | NewRef;

export interface Transport {
  /** Negative: aspirate from the location; positive: dispense into it. */
  volume: Quantity;
}

export interface HandleLocation {
  location: Aliquot;
  transports: Transport[];
}

/** One tip for the whole instruction; liquid left in the tip at the end goes to waste. */
export interface LiquidHandleInstruction {
  op: "liquid_handle";
  locations: HandleLocation[];
}

export interface ProvisionInstruction {
  op: "provision";
  resource_id: string;
  to: { well: Aliquot; volume: Quantity }[];
}

/** Reagent dispenser: every well of each listed column receives the volume at once. */
export interface DispenseInstruction {
  op: "dispense";
  object: string;
  reagent_source: Aliquot;
  columns: { column: number; volume: Quantity }[];
}

export interface SpreadInstruction {
  op: "spread";
  from: Aliquot;
  to: Aliquot;
  volume: Quantity;
}

export interface CoverInstruction {
  op: "cover";
  object: string;
  lid: LidType;
}

export interface UncoverInstruction {
  op: "uncover";
  object: string;
}

export interface SealInstruction {
  op: "seal";
  object: string;
  type: SealType;
}

export interface IncubateInstruction {
  op: "incubate";
  object: string;
  where: IncubatorSetting;
  duration: Quantity;
  shaking: boolean;
  co2_percent: number;
}

export interface SpinInstruction {
  op: "spin";
  object: string;
  acceleration: Quantity;
  duration: Quantity;
}

export interface AbsorbanceInstruction {
  op: "absorbance";
  object: string;
  wells: string[];
  wavelength: Quantity;
  num_flashes: number;
  dataref: string;
}

export interface LuminescenceInstruction {
  op: "luminescence";
  object: string;
  wells: string[];
  integration_time: Quantity;
  dataref: string;
}

export type SpectrophotometryGroup =
  | {
      mode: "absorbance";
      mode_params: { wells: Aliquot[]; wavelength: Quantity[]; num_flashes: number };
    }
  /** Without a duration the shaking lasts until the next read interval starts. */
  | { mode: "shake"; mode_params: Record<string, never> };

/** A kinetic plate read: the groups run num_intervals times, one interval apart. */
export interface SpectrophotometryInstruction {
  op: "spectrophotometry";
  object: string;
  dataref: string;
  groups: SpectrophotometryGroup[];
  interval: Quantity;
  num_intervals: number;
  temperature: Quantity;
}

export interface ThermocycleStep {
  temperature: Quantity;
  duration: Quantity;
  read?: boolean;
}

export interface ThermocycleInstruction {
  op: "thermocycle";
  object: string;
  groups: { cycles: number; steps: ThermocycleStep[] }[];
  volume: Quantity;
  lid_temperature: Quantity;
  /** dataref and dyes come together (a qPCR read); melting needs dyes. */
  dataref?: string;
  dyes?: Record<string, number[]>;
  melting?: { start: Quantity; end: Quantity; increment: Quantity; rate: Quantity };
}

export interface ImagePlateInstruction {
  op: "image_plate";
  object: string;
  mode: "top";
  dataref: string;
}

export type Instruction =
  | LiquidHandleInstruction
  | ProvisionInstruction
  | DispenseInstruction
  | SpreadInstruction
  | CoverInstruction
  | UncoverInstruction
  | SealInstruction
  | IncubateInstruction
  | SpinInstruction
  | AbsorbanceInstruction
  | LuminescenceInstruction
  | SpectrophotometryInstruction
  | ThermocycleInstruction
  | ImagePlateInstruction;

export type InstructionOp = Instruction["op"];

/** What each well holds after the run, so results can be mapped back to the plan. */
export type Outs = Record<string, Record<string, { name: string }>>;

export interface AutoprotocolDocument {
  refs: Record<string, Ref>;
  instructions: Instruction[];
  outs: Outs;
}
