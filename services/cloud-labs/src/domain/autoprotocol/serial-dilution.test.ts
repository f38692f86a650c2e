import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MIN_TRANSFER_UL,
  isSerialDilutionProblem,
  planSerialDilution,
  type SerialDilutionPlan,
} from "./serial-dilution.js";

function plan(concentrations: number[], finalVolume = 50, capacity = 340): SerialDilutionPlan {
  const result = planSerialDilution(concentrations, finalVolume, capacity);
  if (isSerialDilutionProblem(result)) throw new Error(`unexpected problem ${JSON.stringify(result)}`);
  return result;
}

/** Runs the plan as a liquid handler would and returns the concentration and volume of each well. */
function simulate(stock: number, dilution: SerialDilutionPlan) {
  const volume = dilution.diluentUl.slice();
  const amount = volume.map(() => 0);
  volume[0] = (volume[0] as number) + dilution.topVolumeUl;
  amount[0] = stock * dilution.topVolumeUl;
  dilution.transfersUl.forEach((moved, i) => {
    const share = (amount[i] as number) * (moved / (volume[i] as number));
    amount[i] = (amount[i] as number) - share;
    volume[i] = (volume[i] as number) - moved;
    amount[i + 1] = (amount[i + 1] as number) + share;
    volume[i + 1] = (volume[i + 1] as number) + moved;
  });
  const last = volume.length - 1;
  amount[last] = (amount[last] as number) * (1 - dilution.discardUl / (volume[last] as number));
  volume[last] = (volume[last] as number) - dilution.discardUl;
  return { volume, concentration: amount.map((a, i) => a / (volume[i] as number)) };
}

describe("planSerialDilution", () => {
  it("reproduces the classic 2-fold scheme: 100 µL stock, 50 µL diluent, 50 µL transfers and waste", () => {
    const dilution = plan([64, 32, 16, 8]);
    expect(dilution).toEqual({
      topVolumeUl: 100,
      diluentUl: [0, 50, 50, 50],
      transfersUl: [50, 50, 50],
      discardUl: 50,
      peakVolumeUl: 100,
    });
  });

  it("a single concentration is just the stock at the final volume", () => {
    expect(plan([10])).toEqual({
      topVolumeUl: 50,
      diluentUl: [0],
      transfersUl: [],
      discardUl: 0,
      peakVolumeUl: 50,
    });
  });

  it("hits any decreasing series within rounding and leaves every well at the final volume", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 1000, noNaN: true }),
        fc.array(fc.double({ min: 1.5, max: 20, noNaN: true }), { minLength: 1, maxLength: 23 }),
        fc.constantFrom(25, 50, 100),
        (top, folds, finalVolume) => {
          const series = [top];
          for (const fold of folds) series.push((series.at(-1) as number) / fold);
          const result = planSerialDilution(series, finalVolume, 2000);
          if (isSerialDilutionProblem(result)) return result.kind === "transfer_too_small";
          const { volume, concentration } = simulate(top, result);
          volume.forEach((v) => expect(Math.abs(v - finalVolume)).toBeLessThan(0.05));
          concentration.forEach((c, i) => expect(Math.abs(c / (series[i] as number) - 1)).toBeLessThan(0.01));
          return true;
        },
      ),
      { seed: 7, numRuns: 200 },
    );
  });

  it("reports a series that does not decrease", () => {
    expect(planSerialDilution([10, 10, 5], 50, 340)).toEqual({ kind: "not_decreasing", index: 1 });
    expect(planSerialDilution([10, 20], 50, 340)).toEqual({ kind: "not_decreasing", index: 1 });
    expect(planSerialDilution([0], 50, 340)).toEqual({ kind: "not_decreasing", index: 0 });
  });

  it("reports a step too wide to pipette", () => {
    const result = planSerialDilution([1000, 1], 50, 340);
    expect(result).toMatchObject({ kind: "transfer_too_small", index: 0 });
    if (!isSerialDilutionProblem(result) || result.kind !== "transfer_too_small")
      throw new Error("expected a problem");
    expect(result.volumeUl).toBeLessThan(MIN_TRANSFER_UL);
  });

  it("reports steps so fine that a well would overflow", () => {
    const fine = Array.from({ length: 12 }, (_, i) => 100 / 1.1 ** i);
    expect(planSerialDilution(fine, 50, 340)).toMatchObject({ kind: "well_overflow" });
  });
});
