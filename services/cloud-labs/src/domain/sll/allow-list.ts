/**
 * The SLL names Petri may emit: functions, unit operations and, per operation, the option keys
 * with the kind of value each takes. Every generated step is checked against this list (see
 * check.ts), and the renderer refuses anything outside it, so a name can only reach the SLL text
 * by being written here.
 *
 * Provenance (docs/assay-notes.md section 6):
 * - Function names and the unit-operation names LabelContainer, LabelSample, Transfer, Mix,
 *   Incubate, IncubateCells, SerialDilute, Cover, Uncover, Centrifuge, AbsorbanceIntensity and
 *   LuminescenceIntensity are listed there as verified names.
 * - FluorescenceIntensity: the notes verify the function ExperimentFluorescenceIntensity; the
 *   unit-operation form of the name follows the same pattern as AbsorbanceIntensity. [recalled]
 * - EVERY option key below is [recalled] in the notes ("check each helpfile before relying"):
 *   Wavelength, Temperature, IntegrationTime, ReactionVolume, MasterMix, NumberOfCycles,
 *   MeltingCurve, NumberOfReplicates, Activation/Denaturation/Extension Temperature and Time,
 *   SerialDilutionFactors, TransferAmounts, Diluent, CarbonDioxide, Time. Label, Container,
 *   Sample, Source, Destination and Amount are the SLL spellings of the fields of the notes'
 *   suggested JSON (label, container, sample, source, destination, amount). [recalled]
 * - The `{"A1", "plate 1"}` form of a well of a labelled container. [recalled]
 * - Wait is listed in the notes, but none of its options is, so it is not used: timed holds are
 *   Incubate steps with Time.
 * Only the options Petri emits are listed, so the check is as tight as it can be.
 */

/** How an option's value must look. */
export type ValueKind =
  /** A new label (a string), defined by this step. */
  | "new-label"
  /** A labelled sample or container, a well of a labelled container, or a list of them. */
  | "refs"
  /** `Model[Sample, name]` or `Object[Sample, name]`. */
  | "material"
  /** A list of materials. */
  | "materials"
  /** Per sample, a list of {forward, reverse} primer materials (ExperimentqPCR). */
  | "primer-pairs"
  /** `Model[Container, Plate, name]`. */
  | "plate-model"
  | "volume"
  /** One volume or a list of volumes. */
  | "volumes"
  | "time"
  | "temperature"
  | "wavelength"
  | "percent"
  /** A non-empty list of numbers greater than 1. */
  | "factors"
  /** A positive integer. */
  | "count"
  | "boolean";

export interface OperationSpec {
  /** Positional inputs, in order (only for single-experiment functions). */
  inputs: Readonly<Record<string, ValueKind>>;
  options: Readonly<Record<string, ValueKind>>;
  required: readonly string[];
}

export const SLL_UNITS = {
  Microliter: "volume",
  Nanometer: "length",
  Celsius: "temperature",
  Hour: "time",
  Minute: "time",
  Second: "time",
  Percent: "percent",
} as const;

export const SLL_OPERATIONS = {
  LabelContainer: {
    inputs: {},
    options: { Label: "new-label", Container: "plate-model" },
    required: ["Label", "Container"],
  },
  LabelSample: {
    inputs: {},
    options: { Label: "new-label", Sample: "material" },
    required: ["Label", "Sample"],
  },
  Transfer: {
    inputs: {},
    options: { Source: "refs", Destination: "refs", Amount: "volume" },
    required: ["Source", "Destination", "Amount"],
  },
  SerialDilute: {
    inputs: {},
    options: {
      Source: "refs",
      SerialDilutionFactors: "factors",
      TransferAmounts: "volumes",
      Diluent: "refs",
    },
    required: ["Source", "SerialDilutionFactors", "TransferAmounts", "Diluent"],
  },
  Mix: { inputs: {}, options: { Sample: "refs" }, required: ["Sample"] },
  Incubate: {
    inputs: {},
    options: { Sample: "refs", Time: "time", Temperature: "temperature" },
    required: ["Sample"],
  },
  IncubateCells: {
    inputs: {},
    options: { Sample: "refs", Time: "time", Temperature: "temperature", CarbonDioxide: "percent" },
    required: ["Sample", "Time", "Temperature"],
  },
  Cover: { inputs: {}, options: { Sample: "refs" }, required: ["Sample"] },
  Uncover: { inputs: {}, options: { Sample: "refs" }, required: ["Sample"] },
  Centrifuge: { inputs: {}, options: { Sample: "refs", Time: "time" }, required: ["Sample", "Time"] },
  AbsorbanceIntensity: {
    inputs: {},
    options: { Sample: "refs", Wavelength: "wavelength" },
    required: ["Sample"],
  },
  LuminescenceIntensity: {
    inputs: {},
    options: { Sample: "refs", IntegrationTime: "time" },
    required: ["Sample"],
  },
  FluorescenceIntensity: { inputs: {}, options: { Sample: "refs" }, required: ["Sample"] },
  /** The call `ExperimentqPCR[Samples, PrimerPairs, options]` (signature verified in the notes). */
  ExperimentqPCR: {
    inputs: { Samples: "materials", PrimerPairs: "primer-pairs" },
    options: {
      ReactionVolume: "volume",
      MasterMix: "material",
      NumberOfCycles: "count",
      NumberOfReplicates: "count",
      ActivationTemperature: "temperature",
      ActivationTime: "time",
      DenaturationTemperature: "temperature",
      DenaturationTime: "time",
      ExtensionTemperature: "temperature",
      ExtensionTime: "time",
      MeltingCurve: "boolean",
    },
    required: ["Samples", "PrimerPairs"],
  },
} as const satisfies Record<string, OperationSpec>;

/**
 * `unit-operations`: `Fn[{op, op, ...}]`; `call`: exactly one step whose operation is the function
 * itself, rendered `Fn[input, input, Option -> value, ...]`.
 */
export const SLL_FUNCTIONS = {
  ExperimentRoboticCellPreparation: { kind: "unit-operations" },
  ExperimentCellPreparation: { kind: "unit-operations" },
  ExperimentRoboticSamplePreparation: { kind: "unit-operations" },
  ExperimentManualSamplePreparation: { kind: "unit-operations" },
  ExperimentqPCR: { kind: "call" },
} as const satisfies Record<string, { kind: "unit-operations" | "call" }>;

/** Symbols allowed after `Model[` / `Object[`. */
export const SLL_TYPE_HEADS = ["Sample", "Container", "Plate"] as const;

export function isSllOperation(name: string): name is keyof typeof SLL_OPERATIONS {
  return Object.hasOwn(SLL_OPERATIONS, name);
}

export function isSllFunction(name: string): name is keyof typeof SLL_FUNCTIONS {
  return Object.hasOwn(SLL_FUNCTIONS, name);
}

export function operationSpec(name: string): OperationSpec | undefined {
  return isSllOperation(name) ? SLL_OPERATIONS[name] : undefined;
}
