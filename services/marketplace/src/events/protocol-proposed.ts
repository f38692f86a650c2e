import type { ProtocolProposed } from "@petri/contracts/experiments";
import { type Handler, projectExperiment } from "./handlers.js";

/** Staff proposed a protocol for a design request (still pending_review): the job record follows. */
export const protocolProposed: { jobs: Handler<ProtocolProposed> } = {
  jobs: async (ctx, deps) => {
    await projectExperiment(ctx, deps);
  },
};
