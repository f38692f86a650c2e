import { createRouter } from "../../lib/create-app.js";
import {
  clearHistoryHandler,
  editDraftHandler,
  generateHypothesisHandler,
  getActiveRunHandler,
  getRunHandler,
  listRunsHandler,
  startRunHandler,
} from "./engine.handlers.js";
import {
  clearHistory,
  editDraft,
  generateHypothesis,
  getActiveRun,
  getRun,
  listRuns,
  startRun,
} from "./engine.routes.js";

// clear-history is registered before runs/{run_id} routes so its literal path wins.
export const engineRouter = createRouter()
  .openapi(generateHypothesis, generateHypothesisHandler)
  .openapi(startRun, startRunHandler)
  .openapi(getActiveRun, getActiveRunHandler)
  .openapi(clearHistory, clearHistoryHandler)
  .openapi(listRuns, listRunsHandler)
  .openapi(getRun, getRunHandler)
  .openapi(editDraft, editDraftHandler);
