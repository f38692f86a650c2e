import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dilutionFactors, peakWellVolume, serialTransferAmounts } from "./dilution.js";
import { SllNotExpressibleError } from "./errors.js";

/** Each well's final volume and concentration (relative to the first) after the series. */
function run(factors: number[], amounts: number[], keep: number) {
  const volumes = [keep + amounts[0]!];
  const relative = [1];
  factors.forEach((factor, i) => {
    volumes[i] = volumes[i]! - amounts[i]!;
    volumes.push(amounts[i]! * factor);
    relative.push(relative[i]! / factor);
  });
  return { volumes, relative };
}

describe("dilutionFactors", () => {
  it("is the ratio of consecutive concentrations, to 6 significant digits", () => {
    expect(dilutionFactors([64, 32, 16], "f")).toEqual([2, 2]);
    expect(dilutionFactors([30, 10, 3, 1], "f")).toEqual([3, 3.33333, 3]);
    expect(dilutionFactors([5], "f")).toEqual([]);
  });

  it("refuses series that do not strictly decrease or hold non-positive values", () => {
    for (const bad of [
      [1, 2],
      [4, 4],
      [4, 0],
      [4, -1],
      [Number.NaN, 1],
    ]) {
      expect(() => dilutionFactors(bad, "compounds[0].concentrations_ug_ml")).toThrow(SllNotExpressibleError);
    }
    try {
      dilutionFactors([1, 2], "compounds[0].concentrations_ug_ml");
    } catch (error) {
      expect((error as SllNotExpressibleError).field).toBe("compounds[0].concentrations_ug_ml");
    }
  });
});

describe("serialTransferAmounts", () => {
  it("leaves 50 uL in every well of a 2-fold series, nothing to waste", () => {
    const factors = Array.from({ length: 9 }, () => 2);
    const amounts = serialTransferAmounts(factors, 50);
    expect(amounts[amounts.length - 1]).toBe(25);
    const { volumes } = run(factors, amounts, 50);
    for (const volume of volumes) expect(volume).toBeCloseTo(50, 0);
  });

  it("keeps every well near its target volume and the ratios exact, for any series", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 1.2, max: 20, noNaN: true }), { minLength: 1, maxLength: 23 }),
        fc.integer({ min: 10, max: 500 }),
        (rawFactors, keep) => {
          const factors = rawFactors.map((f) => Number(f.toPrecision(6)));
          const amounts = serialTransferAmounts(factors, keep);
          const { volumes, relative } = run(factors, amounts, keep);
          // Rounding to 0.1 uL: a well is off by at most half a step times (its factor + 1).
          volumes.forEach((volume, i) =>
            expect(Math.abs(volume - keep)).toBeLessThanOrEqual(0.05 * ((factors[i - 1] ?? 1) + 1) + 1e-9),
          );
          factors.forEach((factor, i) => expect(relative[i]! / relative[i + 1]!).toBeCloseTo(factor, 9));
          expect(peakWellVolume(amounts, keep)).toBeGreaterThanOrEqual(Math.max(...volumes));
        },
      ),
      { numRuns: 300, seed: 42 },
    );
  });
});
