import type { ExperimentClaimed } from "@petri/contracts/experiments";
import { type Handler, projectExperiment } from "./handlers.js";

/** An operator claimed the job: it leaves the feed and counts against the operator's capacity. */
export const experimentClaimed: { jobs: Handler<ExperimentClaimed> } = {
  jobs: async (ctx, deps) => {
    await projectExperiment(ctx, deps);
  },
};
