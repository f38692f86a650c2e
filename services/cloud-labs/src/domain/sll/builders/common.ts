/** Small pieces the per-type builders share. */
import type { DetectionMethod } from "../../plan.js";
import { SllNotExpressibleError } from "../errors.js";
import { SLL_FORMAT } from "../types.js";
import type {
  SllFunction,
  SllModel,
  SllObject,
  SllProtocolBody,
  SllQuantity,
  SllStep,
  SllValue,
  SllWell,
} from "../types.js";

export const microliters = (value: number): SllQuantity => ({ value, unit: "Microliter" });
export const minutes = (value: number): SllQuantity => ({ value, unit: "Minute" });
export const hours = (value: number): SllQuantity => ({ value, unit: "Hour" });
export const seconds = (value: number): SllQuantity => ({ value, unit: "Second" });
export const celsius = (value: number): SllQuantity => ({ value, unit: "Celsius" });
export const nanometers = (value: number): SllQuantity => ({ value, unit: "Nanometer" });
export const percent = (value: number): SllQuantity => ({ value, unit: "Percent" });

export const at = (label: string, well: string): SllWell => ({ well, label });
export const sampleModel = (name: string): SllModel => ({ model: ["Sample"], name });
export const sampleObject = (name: string): SllObject => ({ object: ["Sample"], name });

/** A number for comments: at most 6 significant digits, no exponent for everyday values. */
export function plain(value: number): string {
  return String(Number(value.toPrecision(6)));
}

export function organismName(organism: { name: string; strain: string | null }): string {
  return organism.strain ? `${organism.name} ${organism.strain}` : organism.name;
}

/** A plan list the protocol cannot do without. */
export function requireSome(count: number, field: string): void {
  if (!(count >= 1)) throw new SllNotExpressibleError(field, "needs at least one entry");
}

/** Collects steps; a comment waits for the next step (a trailing one becomes a protocol note). */
export class StepList {
  readonly steps: SllStep[] = [];
  readonly notes: string[] = [];
  private pending: string[] = [];

  note(text: string): void {
    this.notes.push(text);
  }

  comment(text: string): void {
    this.pending.push(text);
  }

  add(
    operation: SllStep["operation"],
    options: Record<string, SllValue | undefined>,
    comment?: string,
  ): void {
    const comments = comment === undefined ? this.pending : [...this.pending, comment];
    this.pending = [];
    const step: SllStep = { operation };
    if (comments.length > 0) step.comment = comments.join(" / ");
    for (const [key, value] of Object.entries(options)) if (value !== undefined) step[key] = value;
    this.steps.push(step);
  }

  /** Names a sample the lab supplies (a model sample) for the steps that use it. */
  labelSample(label: string, sampleName: string, comment?: string): void {
    this.add("LabelSample", { Label: label, Sample: sampleModel(sampleName) }, comment);
  }

  finish(name: string, fn: SllFunction): SllProtocolBody {
    return {
      format: SLL_FORMAT,
      name,
      function: fn,
      steps: this.steps,
      notes: [...this.notes, ...this.pending],
    };
  }
}

const READABLE: readonly DetectionMethod[] = ["absorbance", "luminescence", "fluorescence"];

/** Whether a listed plate-reader unit operation reads this detection method. */
export function isReadable(detection: DetectionMethod): boolean {
  return READABLE.includes(detection);
}

/** The read for a detection method, or a protocol note when no listed unit operation reads it. */
export function addRead(
  list: StepList,
  detection: DetectionMethod,
  sample: SllValue,
  options: { wavelengthNm?: number | null; comment?: string } = {},
): void {
  switch (detection) {
    case "absorbance":
      list.add(
        "AbsorbanceIntensity",
        {
          Sample: sample,
          Wavelength: options.wavelengthNm == null ? undefined : nanometers(options.wavelengthNm),
        },
        options.comment,
      );
      return;
    case "luminescence":
      list.add("LuminescenceIntensity", { Sample: sample }, options.comment);
      return;
    case "fluorescence":
      list.add(
        "FluorescenceIntensity",
        { Sample: sample },
        [options.comment, "excitation and emission set by the lab for the dye (no listed option)"]
          .filter(Boolean)
          .join(" / "),
      );
      return;
    default:
      list.note(
        `The ${detection.replaceAll("_", " ")} readout is done by the lab: no listed SLL unit operation reads it.`,
      );
  }
}
