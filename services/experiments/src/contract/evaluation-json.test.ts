import { describe, expect, it } from "vitest";
import { evaluateAcceptance } from "../domain/acceptance/index.js";
import { evaluationJson } from "./results-message.js";

describe("the acceptance evaluation on the wire", () => {
  it("uses snake_case field names and keeps condition labels as the operator wrote them", () => {
    const evaluation = evaluateAcceptance(
      { success_conditions: [{ metric: "OD600", operator: "lt", threshold: 0.5, unit: "AU" }] },
      {
        structured_data: {
          measurements: [
            { metric: "OD600", value: 0.41, unit: "AU", condition: "treatedWells" },
            { metric: "OD600", value: 0.44, unit: "AU", condition: "control" },
          ],
        },
      },
    );
    const json = evaluationJson(evaluation) as Record<string, any>;
    expect(Object.keys(json)).toEqual(
      expect.arrayContaining(["verdict", "success_conditions", "failure_conditions"]),
    );
    const condition = json.success_conditions[0];
    expect(condition.unit_check).toBe("match");
    expect(Object.keys(condition.observed.by_condition).sort()).toEqual(["control", "treatedWells"]);
    delete condition.observed.by_condition;
    expect(JSON.stringify(json)).not.toMatch(/"[a-z]+[A-Z][A-Za-z]*":/);
  });
});
