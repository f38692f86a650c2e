import type { IssueReported } from "@petri/contracts/experiments";
import { type Handler, projectExperiment } from "./handlers.js";

/** The operator reported an issue: only the projection's version moves (the state it carries is unchanged). */
export const issueReported: { jobs: Handler<IssueReported> } = {
  jobs: async (ctx, deps) => {
    await projectExperiment(ctx, deps);
  },
};
