import type { DisputeResolved } from "@petri/contracts/experiments";
import { DISPUTE_OUTCOMES } from "@petri/contracts/vocabulary";
import { recordJobOutcome } from "../app/record-job-outcome.js";
import { settleDispute } from "../app/settle-dispute.js";
import { experimentOf, resolvedDisputeOf } from "./experiment-change.js";
import { type Handler, projectExperiment, transactionOf } from "./handlers.js";

/**
 * Staff resolved the dispute: a dispute resolved wholly for the operator no longer counts
 * against it; the escrow (or, after a release, the operator's payable) is split as decided.
 */
export const disputeResolved: { jobs: Handler<DisputeResolved>; ledger: Handler<DisputeResolved> } = {
  jobs: async (ctx, deps) => {
    const experiment = await projectExperiment(ctx, deps);
    const dispute = resolvedDisputeOf(experiment, ctx.payload.dispute);
    const outcome = DISPUTE_OUTCOMES.find((o) => o === dispute.outcome);
    await recordJobOutcome(
      transactionOf(ctx),
      { operatorId: dispute.operatorId, experimentId: experiment.id },
      outcome === undefined ? { kind: "disputed" } : { kind: "dispute_resolved", outcome },
      deps.clock.now(),
    );
  },
  ledger: async (ctx, deps) => {
    const experiment = experimentOf(ctx.payload, ctx.envelope);
    await settleDispute(transactionOf(ctx), deps, resolvedDisputeOf(experiment, ctx.payload.dispute));
  },
};
