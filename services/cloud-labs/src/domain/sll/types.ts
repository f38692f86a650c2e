/**
 * Petri's JSON form of an Emerald Cloud Lab SLL protocol (format "sll-json@1"): the experiment
 * function, its steps (unit operations, or one call of a single-experiment function) with SLL
 * option names as keys, and the SLL text rendered from them. There is no public JSON API for SLL
 * (reference notes section 6), so this JSON is ours; the text is what an ECL user would run.
 */
import type { SLL_FUNCTIONS, SLL_OPERATIONS, SLL_UNITS } from "./allow-list.js";

export const SLL_FORMAT = "sll-json@1";

export type SllFunction = keyof typeof SLL_FUNCTIONS;
export type SllOperation = keyof typeof SLL_OPERATIONS;
export type SllUnit = keyof typeof SLL_UNITS;

/** `{value: 100, unit: "Microliter"}` renders as `100 Microliter`. */
export interface SllQuantity {
  value: number;
  unit: SllUnit;
}

/** A well of a labelled container: `{"A1", "plate 1"}`. */
export interface SllWell {
  well: string;
  label: string;
}

/** Heads of `Model[...]` / `Object[...]` references. */
export type SllTypeHead = "Sample" | "Container" | "Plate";

/** `Model[Container, Plate, "name"]`, `Model[Sample, "name"]`: a catalog model, by name. */
export interface SllModel {
  model: readonly SllTypeHead[];
  name: string;
}

/** `Object[Sample, "name"]`: one physical sample (the requester's own specimen), by name. */
export interface SllObject {
  object: readonly SllTypeHead[];
  name: string;
}

/**
 * An option value. A plain string is a reference to a label (SLL refers to labelled samples and
 * containers by their label string); free text never appears as a bare value.
 */
export type SllValue =
  string | number | boolean | SllQuantity | SllWell | SllModel | SllObject | readonly SllValue[];

/**
 * One unit operation (or, for a single-experiment function, the one call). Keys other than
 * `operation` and `comment` are SLL option (or input) names, checked against the allow-list.
 * `comment` is rendered as a Wolfram Language comment before the step.
 */
export interface SllStep {
  operation: SllOperation;
  comment?: string;
  [option: string]: SllValue | undefined;
}

export interface SllProtocolBody {
  format: typeof SLL_FORMAT;
  /** The plan's title. */
  name: string;
  function: SllFunction;
  steps: SllStep[];
  /** What the protocol cannot express and the lab must know, in plain words. */
  notes: string[];
}

export interface SllProtocol extends SllProtocolBody {
  /** The rendered SLL (Wolfram Language) text of the body above. */
  text: string;
}
