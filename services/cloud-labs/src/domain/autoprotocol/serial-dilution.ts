import { roundMicroliters } from "./quantities.js";

/**
 * In-plate serial dilution for any strictly decreasing series, not only 2-fold.
 *
 * Well 0 receives the stock (concentration = the first value). Well i > 0 is pre-filled with
 * diluent, receives a transfer from well i - 1 and is mixed; the transfer out of the last well
 * goes to waste. Every well ends with the same volume. Working backwards from the last well
 * (which gives away `finalVolume`), the transfer into well i is ratio_i x (finalVolume + the
 * transfer out of well i), which makes well i's concentration exactly the requested one.
 * For a 2-fold series this is the classic scheme: 50 µL diluent, 50 µL transfers, 50 µL to
 * waste, 100 µL of stock in the first well.
 */
export interface SerialDilutionPlan {
  /** Stock volume put into well 0. */
  topVolumeUl: number;
  /** diluentUl[i]: diluent in well i before its transfer arrives (0 for well 0). */
  diluentUl: number[];
  /** transfersUl[i]: volume moved from well i to well i + 1. */
  transfersUl: number[];
  /** Taken from the last well and discarded (0 for a single-point series). */
  discardUl: number;
  /** Highest volume any well holds during the dilution. */
  peakVolumeUl: number;
}

/**
 * Smallest volume we let one transport move. Our choice (the notes give no pipetting minimum):
 * below 1 µL single-channel accuracy is poor on common liquid handlers.
 */
export const MIN_TRANSFER_UL = 1;

export type SerialDilutionProblem =
  | { kind: "not_decreasing"; index: number }
  | { kind: "transfer_too_small"; index: number; volumeUl: number }
  | { kind: "well_overflow"; index: number; volumeUl: number };

export function planSerialDilution(
  concentrations: readonly number[],
  finalVolumeUl: number,
  wellCapacityUl: number,
): SerialDilutionPlan | SerialDilutionProblem {
  const count = concentrations.length;
  if (count === 0) throw new RangeError("a dilution series needs at least one concentration");
  for (let i = 0; i < count; i += 1) {
    const current = concentrations[i] as number;
    const previous = i === 0 ? Infinity : (concentrations[i - 1] as number);
    if (!(current > 0) || !(current < previous)) return { kind: "not_decreasing", index: i };
  }
  if (count === 1) {
    return {
      topVolumeUl: roundMicroliters(finalVolumeUl),
      diluentUl: [0],
      transfersUl: [],
      discardUl: 0,
      peakVolumeUl: roundMicroliters(finalVolumeUl),
    };
  }

  // outflow[i]: what leaves well i (to the next well, or to waste for the last one).
  const outflow = new Array<number>(count).fill(0);
  outflow[count - 1] = roundMicroliters(finalVolumeUl);
  for (let i = count - 1; i >= 1; i -= 1) {
    const ratio = (concentrations[i] as number) / (concentrations[i - 1] as number);
    outflow[i - 1] = roundMicroliters(ratio * (finalVolumeUl + (outflow[i] as number)));
  }
  for (let i = 0; i < count; i += 1) {
    const moved = outflow[i] as number;
    if (moved < MIN_TRANSFER_UL) return { kind: "transfer_too_small", index: i, volumeUl: moved };
    const held = finalVolumeUl + moved;
    if (held > wellCapacityUl) return { kind: "well_overflow", index: i, volumeUl: roundMicroliters(held) };
  }
  const diluentUl = outflow.map((out, i) =>
    i === 0 ? 0 : roundMicroliters(finalVolumeUl + out - (outflow[i - 1] as number)),
  );
  return {
    topVolumeUl: roundMicroliters(finalVolumeUl + (outflow[0] as number)),
    diluentUl,
    transfersUl: outflow.slice(0, count - 1),
    discardUl: outflow[count - 1] as number,
    peakVolumeUl: roundMicroliters(Math.max(...outflow.map((out) => finalVolumeUl + out))),
  };
}

export function isSerialDilutionProblem(
  value: SerialDilutionPlan | SerialDilutionProblem,
): value is SerialDilutionProblem {
  return "kind" in value;
}

export function describeSerialDilutionProblem(problem: SerialDilutionProblem): string {
  switch (problem.kind) {
    case "not_decreasing":
      return `concentration ${problem.index + 1} is not positive and lower than the one before it`;
    case "transfer_too_small":
      return (
        `the step into concentration ${problem.index + 2} needs a ${problem.volumeUl} µL transfer, ` +
        `below the ${MIN_TRANSFER_UL} µL we pipette; use smaller steps between concentrations`
      );
    case "well_overflow":
      return (
        `concentration ${problem.index + 1} would need ${problem.volumeUl} µL in one well during the ` +
        `serial dilution, more than the well holds; use larger steps between concentrations`
      );
  }
}
