import { describe, expect, it } from "vitest";
import { centsToUsd } from "./money.js";

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
