import { openedInSameChange } from "@petri/contracts";
import type { ExperimentSubmitted } from "@petri/contracts/experiments";
import { envelopeVersion } from "@petri/events";
import { holdEscrow } from "../app/hold-escrow.js";
import { experimentOf, statusName } from "./experiment-change.js";
import { type Handler, projectExperiment, transactionOf } from "./handlers.js";

/**
 * True when the job projection needs this submission: one that went to pending_review. The
 * ExperimentOpened recorded with a submission that opened the request projects it (D244):
 * applying both would be two transactions for one state, racing each other.
 */
export function submissionNeedsProjection(event: ExperimentSubmitted): boolean {
  return !openedInSameChange(event);
}

/** A request entered open or pending_review: the job appears; its hold goes into escrow. */
export const experimentSubmitted: {
  jobs: Handler<ExperimentSubmitted>;
  ledger: Handler<ExperimentSubmitted>;
} = {
  jobs: async (ctx, deps) => {
    await projectExperiment(ctx, deps);
  },
  ledger: async (ctx, deps) => {
    const experiment = experimentOf(ctx.payload, ctx.envelope);
    const status = statusName(experiment.status);
    if (status !== "open" && status !== "pending_review") return;
    await holdEscrow(transactionOf(ctx), deps, {
      experimentId: experiment.id,
      holdCents: Number(ctx.payload.holdAmountCents),
      version: envelopeVersion(ctx.envelope),
    });
  },
};
