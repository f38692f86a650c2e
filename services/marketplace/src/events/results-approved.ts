import type { ResultsApproved } from "@petri/contracts/experiments";
import { recordJobOutcome } from "../app/record-job-outcome.js";
import { releaseEscrow } from "../app/release-escrow.js";
import { experimentOf, operatorIdOf } from "./experiment-change.js";
import { type Handler, projectExperiment, transactionOf } from "./handlers.js";

/** Approved: the job is completed and counts for the operator's quality; escrow is released to it. */
export const resultsApproved: { jobs: Handler<ResultsApproved>; ledger: Handler<ResultsApproved> } = {
  jobs: async (ctx, deps) => {
    const experiment = await projectExperiment(ctx, deps);
    await recordJobOutcome(
      transactionOf(ctx),
      { operatorId: operatorIdOf(experiment), experimentId: experiment.id },
      {
        kind: "approved",
        onTime: ctx.payload.onTime,
        rating: ctx.payload.rating >= 1 && ctx.payload.rating <= 5 ? ctx.payload.rating : null,
      },
      deps.clock.now(),
    );
  },
  ledger: async (ctx, deps) => {
    const experiment = experimentOf(ctx.payload, ctx.envelope);
    await releaseEscrow(transactionOf(ctx), deps, {
      experimentId: experiment.id,
      operatorId: operatorIdOf(experiment),
    });
  },
};
