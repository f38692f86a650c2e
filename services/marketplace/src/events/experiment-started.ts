import type { ExperimentStarted } from "@petri/contracts/experiments";
import { type Handler, projectExperiment } from "./handlers.js";

/** The operator started work: still an active job of that operator. */
export const experimentStarted: { jobs: Handler<ExperimentStarted> } = {
  jobs: async (ctx, deps) => {
    await projectExperiment(ctx, deps);
  },
};
