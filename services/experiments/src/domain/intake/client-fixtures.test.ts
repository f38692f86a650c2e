import { describe, expect, it } from "vitest";

import { EXPERIMENT_TYPES } from "@petri/contracts/vocabulary";
import { clientIntakes } from "@petri/fixtures";
import { run } from "../../../test/support/intake.js";

/** Every path of a JSON value with its leaf, e.g. ["hypothesis.why_interesting", "…"]. */
function leaves(value: unknown, at = ""): Array<[string, unknown]> {
  if (Array.isArray(value)) return value.flatMap((item) => leaves(item, `${at}[]`));
  if (value !== null && typeof value === "object")
    return Object.entries(value).flatMap(([key, item]) => leaves(item, at ? `${at}.${key}` : key));
  return [[at, value]];
}

describe("requests written the way other marketplaces' clients write them", () => {
  for (const type of EXPERIMENT_TYPES) {
    it(`accepts the ${type} request as sent, and stores it in our spellings`, () => {
      const result = run(clientIntakes[type]);
      expect(result.errors).toEqual([]);
      expect(result.valid).toBe(true);
      expect(result.request?.experiment_type).toBe(type);
      const stored = leaves(result.request).map(([path]) => path);
      for (const foreign of ["why_interesting", "technical_replicates", "biological_replicates", ".test"])
        expect(stored.filter((path) => path.endsWith(foreign))).toEqual([]);
      expect(result.request?.compliance.bsl).toMatch(/^BSL-[12]$/);
    });
  }

  it("use the other spellings, not only ours (so the checks above test the aliases)", () => {
    const sent = EXPERIMENT_TYPES.flatMap((type) => leaves(clientIntakes[type]));
    const paths = new Set(sent.map(([path]) => path));
    for (const path of [
      "hypothesis.why_interesting",
      "turnaround_budget.budget_max_usd",
      "replicates.technical_replicates",
      "replicates.biological_replicates",
      "acceptance_criteria.statistical_requirements.test",
    ])
      expect(paths).toContain(path);
    const levels = new Set(sent.filter(([path]) => path === "compliance.bsl").map(([, level]) => level));
    expect([...levels].sort()).toEqual(["BSL-1", "BSL-2", "BSL1", "BSL2"]);
    const steps = (clientIntakes.CUSTOM as { custom_protocol: { steps: object[] } }).custom_protocol.steps;
    expect(steps.filter((step) => !("critical_parameters" in step)).length).toBeGreaterThan(0);
    expect(
      EXPERIMENT_TYPES.some(
        (type) =>
          (clientIntakes[type] as { materials_provided?: unknown[] }).materials_provided?.length === 0,
      ),
    ).toBe(true);
  });

  it("stores statistical_requirements.test as statistical_test and says so once", () => {
    for (const [type, test] of [
      ["QPCR_EXPRESSION", "t_test"],
      ["MICROBIAL_GROWTH_MATRIX", "anova"],
    ] as const) {
      const result = run(clientIntakes[type]);
      expect(result.request?.acceptance_criteria.statistical_requirements).toEqual({
        significance_level: 0.05,
        statistical_test: test,
      });
      expect(result.warnings.filter((w) => w.code === "request.alias_normalised")).toEqual([
        expect.objectContaining({ path: "acceptance_criteria.statistical_requirements.test" }),
      ]);
    }
  });

  it("warns about each custom step without critical parameters, and only those", () => {
    const result = run(clientIntakes.CUSTOM);
    expect(
      result.warnings.filter((w) => w.code === "custom.step_critical_parameters").map((w) => w.path),
    ).toEqual([
      "custom_protocol.steps[0].critical_parameters",
      "custom_protocol.steps[3].critical_parameters",
    ]);
  });
});
