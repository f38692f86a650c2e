import { describe, expect, it } from "vitest";

import { dilutionSeries, distinctDescending, logSpaced, pointsBetween, readable } from "./series.js";
import { massConcentrationFactor, massFactor, molarFactor, scaled, toCelsius, toMinutes } from "./units.js";

describe("readable", () => {
  it("keeps values exact to 5 significant figures and rounds the rest to 3", () => {
    expect(readable(0.125)).toBe(0.125);
    expect(readable(0.03125)).toBe(0.03125);
    expect(readable(10 / 3)).toBe(3.33);
    expect(readable(30 / 81)).toBe(0.37);
    expect(readable(1e-7 / 3)).toBe(3.33e-8);
  });
});

describe("dilutionSeries", () => {
  it("halves from the top for 2-fold, exactly", () => {
    expect(dilutionSeries(64, "2-fold", 10)).toEqual([64, 32, 16, 8, 4, 2, 1, 0.5, 0.25, 0.125]);
  });

  it("divides by 3 with readable rounding for 3-fold", () => {
    expect(dilutionSeries(30, "3-fold", 5)).toEqual([30, 10, 3.33, 1.11, 0.37]);
  });

  it("follows the 1-3-10 grid for half-log series that start on it", () => {
    expect(dilutionSeries(30, "half-log", 10)).toEqual([30, 10, 3, 1, 0.3, 0.1, 0.03, 0.01, 0.003, 0.001]);
    expect(dilutionSeries(100, "half-log", 4)).toEqual([100, 30, 10, 3]);
  });

  it("divides by sqrt(10) and rounds when the top is off the grid", () => {
    expect(dilutionSeries(50, "half-log", 4)).toEqual([50, 15.8, 5, 1.58]);
  });
});

describe("pointsBetween and logSpaced", () => {
  it("counts the steps from max down to min, min included when it lies on the series", () => {
    expect(pointsBetween(64, 0.125, "2-fold")).toBe(10);
    expect(pointsBetween(64, 0.1, "2-fold")).toBe(10);
    expect(pointsBetween(30, 0.001, "half-log")).toBe(9);
  });

  it("returns huge or infinite counts for hostile ranges without building them", () => {
    expect(pointsBetween(1e300, 1e-300, "2-fold")).toBeGreaterThan(1000);
    expect(pointsBetween(Number.MAX_VALUE, Number.MIN_VALUE, "2-fold")).toBeGreaterThan(2000);
  });

  it("spaces points evenly on a log scale and ends on min", () => {
    expect(logSpaced(100, 1, 3)).toEqual([100, 10, 1]);
    expect(logSpaced(1000, 1, 4)).toEqual([1000, 100, 10, 1]);
  });

  it("distinctDescending sorts and reports duplicates", () => {
    expect(distinctDescending([1, 4, 2, 4])).toEqual({ values: [4, 2, 1], duplicates: 1 });
  });
});

describe("units", () => {
  it("converts mass concentrations to µg/mL", () => {
    expect(massConcentrationFactor("µg/mL")).toBe(1);
    expect(massConcentrationFactor("ug/ml")).toBe(1);
    expect(massConcentrationFactor("mg/L")).toBe(1);
    expect(massConcentrationFactor("mg/mL")).toBe(1000);
    expect(massConcentrationFactor("ng/mL")).toBe(0.001);
    expect(massConcentrationFactor("µM")).toBeNull();
  });

  it("converts molar units to µM, including the mol/L spelling", () => {
    expect(molarFactor("nM")).toBe(0.001);
    expect(molarFactor("μM")).toBe(1);
    expect(molarFactor("mM")).toBe(1000);
    expect(molarFactor("mmol/L")).toBe(1000);
    expect(molarFactor("µg/mL")).toBeNull();
  });

  it("converts masses to µg and refuses overflow", () => {
    expect(massFactor("mg")).toBe(1000);
    expect(massFactor("mcg")).toBe(1);
    expect(massFactor("mm")).toBeNull();
    expect(scaled(1e308, 1000)).toBeNull();
    expect(scaled(5e-324, 1e-3)).toBeNull();
  });

  it("converts step durations and temperatures", () => {
    expect(toMinutes(2, "hours")).toBe(120);
    expect(toMinutes(30, "seconds")).toBe(0.5);
    expect(toCelsius(98.6, "F")).toBeCloseTo(37, 6);
    expect(toCelsius(310.15, "K")).toBeCloseTo(37, 6);
  });
});
