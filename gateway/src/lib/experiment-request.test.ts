import { describe, expect, it } from "vitest";
import { requestFieldDocumentation } from "./experiment-request.js";

type Schema = { properties: Record<string, Schema>; required?: string[]; items: Schema; enum?: string[] };

describe("the documented experiment request", () => {
  it("documents statistical_requirements.test as an accepted alias of statistical_test", () => {
    const acceptance = requestFieldDocumentation("acceptance_criteria") as unknown as Schema;
    const stats = acceptance.properties.statistical_requirements!;
    expect(stats.properties.test?.enum).toEqual(stats.properties.statistical_test?.enum);
    expect(JSON.stringify(stats.properties.test)).toContain("alias of statistical_test");
  });

  it("requires critical parameters of the protocol, not of every step", () => {
    const custom = requestFieldDocumentation("custom_protocol") as unknown as Schema;
    const step = custom.properties.steps!.items;
    expect(step.required).toEqual(["step_number", "action", "expected_outcome"]);
    expect(step.properties).toHaveProperty("critical_parameters");
  });
});
