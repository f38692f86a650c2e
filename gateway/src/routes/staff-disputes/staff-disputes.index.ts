import { createRouter } from "../../lib/create-app.js";
import { getDisputeHandler, listDisputesHandler, resolveDisputeHandler } from "./staff-disputes.handlers.js";
import { getDispute, listDisputes, resolveDispute } from "./staff-disputes.routes.js";

export const staffDisputesRouter = createRouter({ errorPaths: true })
  .openapi(listDisputes, listDisputesHandler)
  .openapi(getDispute, getDisputeHandler)
  .openapi(resolveDispute, resolveDisputeHandler);
