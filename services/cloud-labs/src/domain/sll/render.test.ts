import { describe, expect, it } from "vitest";
import { SAMPLE_PLANS } from "../../../test/support/sample-plans.js";
import { renderSll } from "./render.js";
import { toSll } from "./to-sll.js";
import type { SllProtocolBody } from "./types.js";

describe("renderSll", () => {
  it("renders a stored JSON protocol to the same text", () => {
    for (const plan of Object.values(SAMPLE_PLANS)) {
      const { text, ...body } = toSll(plan);
      const stored = JSON.parse(JSON.stringify(body)) as SllProtocolBody;
      expect(renderSll(stored)).toBe(text);
    }
  });

  it("writes unit operations inside the function's list and a single-call function with its inputs first", () => {
    const mic = toSll(SAMPLE_PLANS.MIC_MBC_ASSAY).text;
    expect(mic).toMatch(
      /^\(\* Petri protocol sll-json@1: "MIC of ampicillin against E\. coli ATCC 25922" \*\)\n/,
    );
    expect(mic).toContain(
      'ExperimentRoboticCellPreparation[{\n  LabelContainer[Label -> "plate 1", Container -> Model[Container, Plate, "96-well UV-Star Plate"]],\n',
    );
    expect(mic.endsWith("\n}]\n")).toBe(true);
    const qpcr = toSll(SAMPLE_PLANS.QPCR_EXPRESSION).text;
    expect(qpcr).toMatch(/\nExperimentqPCR\[\n {2}\{Object\[Sample, "vehicle-1"\], /);
    expect(qpcr).toContain(",\n  ReactionVolume -> 20 Microliter,\n");
  });
});
