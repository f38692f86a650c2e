/**
 * Serial dilutions. SerialDilute takes the factor between consecutive wells and the volume moved
 * at each step; the diluent a well receives is that volume times (factor - 1). [recalled: ECL
 * SerialDilute semantics, check the helpfile]
 */
import { SllNotExpressibleError } from "./errors.js";

const roundTo = (value: number, step: number) => Math.round(value / step) * step;

/**
 * Factors between consecutive concentrations (highest first), to 6 significant digits so that
 * half-log series stay readable (3.16228) while the concentrations move by less than 1 ppm.
 */
export function dilutionFactors(concentrations: readonly number[], field: string): number[] {
  for (const value of concentrations) {
    if (!Number.isFinite(value) || value <= 0) {
      throw new SllNotExpressibleError(field, "every concentration must be a positive number");
    }
  }
  const factors: number[] = [];
  for (let i = 0; i + 1 < concentrations.length; i++) {
    const factor = Number((concentrations[i]! / concentrations[i + 1]!).toPrecision(6));
    if (!(factor > 1)) {
      throw new SllNotExpressibleError(
        field,
        "a serial dilution needs concentrations that strictly decrease (highest first)",
      );
    }
    factors.push(factor);
  }
  return factors;
}

/**
 * Volumes moved at each step so that every well keeps `keepUl` and the last well gives nothing
 * away (nothing goes to waste, and no SLL discard step is assumed). Before giving T[i] on, well
 * i+1 holds T[i] * factor[i] = keep + T[i+1]; solved from the last well back. Rounded to 0.1 uL:
 * that moves volumes by a fraction of a percent and leaves the concentration ratios exact, since
 * the diluent follows the volume moved.
 */
export function serialTransferAmounts(factors: readonly number[], keepUl: number): number[] {
  const amounts = new Array<number>(factors.length);
  let givenOnByNext = 0;
  for (let i = factors.length - 1; i >= 0; i--) {
    const amount = (keepUl + givenOnByNext) / factors[i]!;
    amounts[i] = amount;
    givenOnByNext = amount;
  }
  return amounts.map((amount) => Number(roundTo(amount, 0.1).toFixed(1)));
}

/** The most any well holds during the series: what it keeps plus what it passes on. */
export function peakWellVolume(amounts: readonly number[], keepUl: number): number {
  return keepUl + Math.max(0, ...amounts);
}
