import type { ExperimentCancelled } from "@petri/contracts/experiments";
import { settleCancellation } from "../app/settle-cancellation.js";
import { experimentOf, operatorIdOf } from "./experiment-change.js";
import { type Handler, projectExperiment, transactionOf } from "./handlers.js";

/** Cancelled: the job leaves the feed; the refund and the operator's compensation are paid from escrow. */
export const experimentCancelled: {
  jobs: Handler<ExperimentCancelled>;
  ledger: Handler<ExperimentCancelled>;
} = {
  jobs: async (ctx, deps) => {
    await projectExperiment(ctx, deps);
  },
  ledger: async (ctx, deps) => {
    const experiment = experimentOf(ctx.payload, ctx.envelope);
    await settleCancellation(transactionOf(ctx), deps, {
      experimentId: experiment.id,
      refundCents: Number(ctx.payload.refundAmountCents),
      compensationCents: Number(ctx.payload.operatorCompensationCents),
      operatorId: operatorIdOf(experiment),
    });
  },
};
