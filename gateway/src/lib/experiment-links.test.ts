import { create } from "@bufbuild/protobuf";
import { ExperimentAction, ExperimentSchema, ExperimentStatus } from "@petri/contracts/experiments";
import { describe, expect, it } from "vitest";
import { experimentLinks } from "./experiments-json.js";

describe("experimentLinks", () => {
  it("offers approve and dispute as the experiments service allows them, whatever the status says", () => {
    const pending = create(ExperimentSchema, {
      id: "exp_1",
      status: ExperimentStatus.PENDING_APPROVAL,
      availableActions: [ExperimentAction.APPROVE_RESULTS, ExperimentAction.DISPUTE],
    });
    expect(experimentLinks(pending)).toEqual({
      self: "/experiments/exp_1",
      results: "/experiments/exp_1/results",
      cancel: "/experiments/exp_1",
      approve: "/experiments/exp_1/approve",
      dispute: "/experiments/exp_1/dispute",
    });
    // The gateway keeps no copy of the lifecycle: no action listed, no link.
    const silent = create(ExperimentSchema, { id: "exp_1", status: ExperimentStatus.PENDING_APPROVAL });
    expect(Object.keys(experimentLinks(silent))).toEqual(["self", "results", "cancel"]);
    const disputeOnly = create(ExperimentSchema, {
      id: "exp 2",
      status: ExperimentStatus.COMPLETED,
      availableActions: [ExperimentAction.DISPUTE],
    });
    expect(experimentLinks(disputeOnly)).toMatchObject({ dispute: "/experiments/exp%202/dispute" });
    expect(experimentLinks(disputeOnly)).not.toHaveProperty("approve");
  });
});
