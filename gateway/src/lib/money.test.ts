import { describe, expect, it } from "vitest";
import { centsToUsd, usdToCents } from "./money.js";

describe("centsToUsd", () => {
  it.each([
    [0n, 0, "0"],
    [1n, 0.01, "0.01"],
    [10n, 0.1, "0.1"],
    [1050n, 10.5, "10.5"],
    [41250n, 412.5, "412.5"],
    [123456n, 1234.56, "1234.56"],
    [-99n, -0.99, "-0.99"],
    [9_999_999_999_999n, 99_999_999_999.99, "99999999999.99"],
  ])("%s cents is %s USD", (cents, usd, json) => {
    expect(centsToUsd(cents)).toBe(usd);
    expect(JSON.stringify(centsToUsd(cents))).toBe(json);
  });

  it("prints every cent amount with at most two decimals (no float noise)", () => {
    for (let cents = -2_000; cents <= 200_000; cents += 7) {
      expect(JSON.stringify(centsToUsd(BigInt(cents)))).toMatch(/^-?\d+(\.\d{1,2})?$/);
      expect(Math.round(centsToUsd(cents) * 100)).toBe(cents);
    }
  });

  it("accepts a whole number and refuses amounts beyond exact doubles", () => {
    expect(centsToUsd(250)).toBe(2.5);
    expect(() => centsToUsd(2n ** 60n)).toThrow(RangeError);
  });
});

describe("usdToCents", () => {
  it.each([
    [19.99, 1999n],
    ["19.99", 1999n],
    [0.3, 30n],
    [1.15, 115n], // 1.15 * 100 is 114.99999999999999
    [4.35, 435n], // 4.35 * 100 is 434.99999999999994
    [1.1, 110n],
    ["1.1", 110n],
    [0, 0n],
    ["0.07", 7n],
    [100_000, 10_000_000n],
    [" 12.5 ", 1250n],
    [999_999_999_999.99, 99_999_999_999_999n],
  ])("%s USD is %s cents", (usd, cents) => {
    expect(usdToCents(usd)).toBe(cents);
  });

  it("refuses more than two decimals (0.1 + 0.2 is not 0.3), negatives, exponents and non-numbers", () => {
    for (const usd of [
      0.1 + 0.2,
      1.005,
      "19.999",
      -1,
      "-0.5",
      1e21,
      1e-7,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      "",
      "1e2",
      "12,50",
      "$5",
      ".5",
      "5.",
      "1234567890123",
    ]) {
      expect(usdToCents(usd), String(usd)).toBeUndefined();
    }
  });

  it("is the inverse of centsToUsd for every cent amount", () => {
    const drifted: number[] = [];
    for (let cents = 0; cents <= 1_000_000; cents += 1) {
      if (usdToCents(centsToUsd(cents)) !== BigInt(cents)) drifted.push(cents);
    }
    expect(drifted).toEqual([]);
  });
});
