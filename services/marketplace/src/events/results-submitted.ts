import type { ResultsSubmitted } from "@petri/contracts/experiments";
import { type Handler, projectExperiment } from "./handlers.js";

/** Results are in (pending_approval): the job no longer occupies the operator's capacity. */
export const resultsSubmitted: { jobs: Handler<ResultsSubmitted> } = {
  jobs: async (ctx, deps) => {
    await projectExperiment(ctx, deps);
  },
};
