/**
 * What one interpretation accumulates while a plan is built: problems, notes (each default in
 * plain words) and the tally behind the confidence.
 *
 * Confidence (decision): every builder declares its key parameters, the ones a lab would ask
 * about before running (organisms, compounds, concentrations, medium, times, temperatures,
 * replicates, biosafety level, the read-out where the intake can choose it...). Each counts once,
 * as "from the intake" (stated, or derived only from stated fields) or "defaulted". Confidence is
 * from_intake / total, rounded to 2 decimals: 1 means the intake decided every key parameter,
 * 0.5 that half of them are Petri's defaults. Fixed facts of a plan type (a qPCR is read by
 * qPCR fluorescence) are not key parameters and do not move the number.
 */
import type { CloudLabProvider, DetectionMethod, PlanProblem, PlateFormat } from "../plan.js";

export class PlanContext {
  readonly problems: PlanProblem[] = [];
  readonly notes: string[] = [];
  private fromIntake = 0;
  private total = 0;

  constructor(readonly provider: CloudLabProvider | undefined) {}

  problem(field: string, message: string): void {
    this.problems.push({ field, message });
  }

  note(text: string): void {
    if (!this.notes.includes(text)) this.notes.push(text);
  }

  /** Counts one key parameter. */
  key(fromIntake: boolean): void {
    this.total += 1;
    if (fromIntake) this.fromIntake += 1;
  }

  /** The stated value, or the default (with its note); counts one key parameter. */
  pick<T>(stated: T | undefined, fallback: T, note: string): T {
    this.key(stated !== undefined);
    if (stated !== undefined) return stated;
    this.note(note);
    return fallback;
  }

  confidence(): number {
    if (this.total === 0) return 1;
    return Math.round((this.fromIntake / this.total) * 100) / 100;
  }

  /**
   * The first candidate read-out the provider has, else the first candidate. Candidates are in
   * the order of preference for the assay.
   */
  preferredDetection<T extends DetectionMethod>(candidates: readonly [T, ...T[]]): T {
    const available = this.provider?.capabilities.detection_methods;
    return candidates.find((method) => available?.includes(method)) ?? candidates[0];
  }

  /** 96-well unless the provider only has 384-well plates. */
  preferredPlate(): PlateFormat {
    const formats = this.provider?.capabilities.plate_formats;
    if (formats && !formats.includes("96-well") && formats.includes("384-well")) {
      this.note(`Plate format: 384-well, the format ${this.provider?.name} offers.`);
      return "384-well";
    }
    return "96-well";
  }
}
