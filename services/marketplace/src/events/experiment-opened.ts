import type { ExperimentOpened } from "@petri/contracts/experiments";
import { type Handler, projectExperiment } from "./handlers.js";

/** A request became open: the job enters the feed (posted_at is its first open time). */
export const experimentOpened: { jobs: Handler<ExperimentOpened> } = {
  jobs: async (ctx, deps) => {
    await projectExperiment(ctx, deps);
  },
};
