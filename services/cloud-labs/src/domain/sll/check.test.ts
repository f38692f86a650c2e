import { describe, expect, it } from "vitest";
import { SLL_FUNCTIONS, SLL_OPERATIONS } from "./allow-list.js";
import { checkSllProtocol } from "./check.js";
import { SllRenderError } from "./errors.js";
import { renderSll } from "./render.js";
import { planVariants } from "../../../test/support/sll/plan-variants.js";
import { toSll } from "./to-sll.js";
import type { SllProtocolBody, SllStep } from "./types.js";

describe("allow-list", () => {
  for (const { name, plan } of planVariants()) {
    it(`every step of ${name} uses allow-listed names and value kinds`, () => {
      const protocol = toSll(plan);
      expect(Object.keys(SLL_FUNCTIONS)).toContain(protocol.function);
      for (const step of protocol.steps) {
        const spec = SLL_OPERATIONS[step.operation];
        expect(spec, step.operation).toBeDefined();
        const allowed = new Set<string>([
          "operation",
          "comment",
          ...Object.keys(spec.inputs),
          ...Object.keys(spec.options),
        ]);
        for (const key of Object.keys(step)) expect(allowed, `${step.operation}.${key}`).toContain(key);
        for (const key of spec.required) expect(step[key], `${step.operation}.${key}`).toBeDefined();
      }
      expect(checkSllProtocol(protocol)).toEqual([]);
    });
  }
});

describe("checkSllProtocol catches what the renderer must refuse", () => {
  const plate = { model: ["Container", "Plate"], name: "96-well UV-Star Plate" } as const;
  const base = (steps: SllStep[]): SllProtocolBody => ({
    format: "sll-json@1",
    name: "t",
    function: "ExperimentRoboticSamplePreparation",
    steps,
    notes: [],
  });
  const label = (name: string): SllStep => ({ operation: "LabelContainer", Label: name, Container: plate });
  const cases: [string, SllProtocolBody, RegExp][] = [
    ["an unknown operation", base([{ operation: "Evaluate" as never }]), /unknown operation/],
    ["an option outside the list", base([{ ...label("p"), Instrument: "x" }]), /not allowed/],
    [
      "a missing required option",
      base([{ operation: "LabelContainer", Label: "p" }]),
      /Container is required/,
    ],
    [
      "a quantity of the wrong dimension",
      base([label("p"), { operation: "Incubate", Sample: "p", Time: { value: 5, unit: "Celsius" } }]),
      /Time is not a valid time/,
    ],
    [
      "a negative volume",
      base([
        label("p"),
        { operation: "Transfer", Source: "p", Destination: "p", Amount: { value: -1, unit: "Microliter" } },
      ]),
      /Amount/,
    ],
    [
      "a label used before it is defined",
      base([{ operation: "Cover", Sample: "p" }, label("p")]),
      /before it is labelled/,
    ],
    ["a label defined twice", base([label("p"), label("p")]), /defined twice/],
    [
      "a well outside its plate",
      base([label("p"), { operation: "Mix", Sample: { well: "I13", label: "p" } }]),
      /not in "p"/,
    ],
    [
      "a dilution factor that does not dilute",
      base([
        label("p"),
        {
          operation: "SerialDilute",
          Source: "p",
          SerialDilutionFactors: [2, 1],
          TransferAmounts: { value: 5, unit: "Microliter" },
          Diluent: "p",
        },
      ]),
      /SerialDilutionFactors/,
    ],
    [
      "a Model head outside the list",
      base([
        {
          operation: "LabelContainer",
          Label: "p",
          Container: { model: ["Container", "Evil"] as never, name: "x" },
        },
      ]),
      /Container is not a valid plate-model/,
    ],
    [
      "a function used as a unit operation",
      base([{ operation: "ExperimentqPCR", Samples: [], PrimerPairs: [] }]),
      /function, not a unit operation|materials/,
    ],
    [
      "a unit operation in a single-call function",
      { ...base([label("p")]), function: "ExperimentqPCR" },
      /takes one call of itself/,
    ],
    ["an unknown function", { ...base([label("p")]), function: "ToExpression" as never }, /unknown function/],
  ];
  for (const [what, protocol, message] of cases) {
    it(what, () => {
      const problems = checkSllProtocol(protocol);
      expect(problems.map((p) => p.message).join("; ")).toMatch(message);
      expect(() => renderSll(protocol)).toThrow(SllRenderError);
    });
  }

  it("renders options in allow-list order whatever the JSON key order", () => {
    const protocol = base([
      { Container: plate, Label: "p", operation: "LabelContainer" } as SllStep,
      {
        Temperature: { value: 30, unit: "Celsius" },
        Time: { value: 5, unit: "Minute" },
        Sample: "p",
        operation: "Incubate",
      } as SllStep,
    ]);
    expect(renderSll(protocol)).toContain(
      'Incubate[Sample -> "p", Time -> 5 Minute, Temperature -> 30 Celsius]',
    );
  });
});
