import type { ExperimentUpdated } from "@petri/contracts/experiments";
import { envelopeVersion } from "@petri/events";
import { adjustHold } from "../app/adjust-hold.js";
import { experimentOf } from "./experiment-change.js";
import { type Handler, projectExperiment, transactionOf } from "./handlers.js";

/** Constraints, turnaround or protocol changed: the job follows; the hold follows the new estimate. */
export const experimentUpdated: { jobs: Handler<ExperimentUpdated>; ledger: Handler<ExperimentUpdated> } = {
  jobs: async (ctx, deps) => {
    await projectExperiment(ctx, deps);
  },
  ledger: async (ctx, deps) => {
    const experiment = experimentOf(ctx.payload, ctx.envelope);
    await adjustHold(transactionOf(ctx), deps, {
      experimentId: experiment.id,
      holdCents: Number(ctx.payload.holdAmountCents),
      version: envelopeVersion(ctx.envelope),
    });
  },
};
