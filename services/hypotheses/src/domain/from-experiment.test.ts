import { describe, expect, it } from "vitest";
import { hypothesisFromExperiment } from "./from-experiment.js";

const EXPERIMENT = {
  id: "exp_01",
  requesterAccountId: "usr_owner",
  status: "submitted",
  title: "IL6 after PX-17",
  experimentType: "QPCR_EXPRESSION",
  requestJson: JSON.stringify({
    experiment_type: "QPCR_EXPRESSION",
    title: "IL6 after PX-17",
    hypothesis: { statement: "PX-17 lowers IL6.", null_hypothesis: "PX-17 does not change IL6." },
    communication_preferences: { webhook_url: "https://example.test/hook" },
    qpcr: { targets: [{ gene_symbol: "IL6" }] },
  }),
};

describe("a hypothesis saved from a submitted experiment", () => {
  it("takes the statement, null, type and title, and the request without its communication preferences", () => {
    const content = hypothesisFromExperiment("usr_owner", EXPERIMENT, "");
    expect(content).toMatchObject({
      title: "IL6 after PX-17",
      statement: "PX-17 lowers IL6.",
      nullHypothesis: "PX-17 does not change IL6.",
      experimentType: "QPCR_EXPRESSION",
      sourceExperimentId: "exp_01",
    });
    expect(content.intakeDraft).not.toHaveProperty("communication_preferences");
    expect(content.intakeDraft).toHaveProperty("qpcr");
    expect(hypothesisFromExperiment("usr_owner", EXPERIMENT, "My title").title).toBe("My title");
  });

  it("is the requester's only (another account: not found) and not from a draft", () => {
    expect(() => hypothesisFromExperiment("usr_other", EXPERIMENT, "")).toThrow(/not found/);
    expect(() => hypothesisFromExperiment("usr_owner", { ...EXPERIMENT, status: "draft" }, "")).toThrow(
      /draft/,
    );
  });

  it("leaves the intake draft out when the request is larger than a draft may be", () => {
    const big = { ...JSON.parse(EXPERIMENT.requestJson), notes: "x".repeat(70 * 1024) };
    const content = hypothesisFromExperiment(
      "usr_owner",
      { ...EXPERIMENT, requestJson: JSON.stringify(big) },
      "",
    );
    expect(content.intakeDraft).toBeNull();
    expect(content.statement).toBe("PX-17 lowers IL6.");
  });
});
