import type { ExperimentDisputed } from "@petri/contracts/experiments";
import { recordJobOutcome } from "../app/record-job-outcome.js";
import { operatorIdOf } from "./experiment-change.js";
import { type Handler, projectExperiment, transactionOf } from "./handlers.js";

/** Disputed: the job shows the dispute (payment status "disputed") and counts in the operator's dispute rate. */
export const experimentDisputed: { jobs: Handler<ExperimentDisputed> } = {
  jobs: async (ctx, deps) => {
    const experiment = await projectExperiment(ctx, deps);
    const operatorId = ctx.payload.dispute?.operatorId || operatorIdOf(experiment);
    await recordJobOutcome(
      transactionOf(ctx),
      { operatorId, experimentId: experiment.id },
      { kind: "disputed" },
      deps.clock.now(),
    );
  },
};
