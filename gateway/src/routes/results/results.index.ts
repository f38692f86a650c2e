import { createRouter } from "../../lib/create-app.js";
import { approveResultsHandler, disputeResultsHandler, getResultsHandler } from "./results.handlers.js";
import { approveResults, disputeResults, getResults } from "./results.routes.js";

export const resultsRouter = createRouter({ errorPaths: true })
  .openapi(getResults, getResultsHandler)
  .openapi(approveResults, approveResultsHandler)
  .openapi(disputeResults, disputeResultsHandler);
