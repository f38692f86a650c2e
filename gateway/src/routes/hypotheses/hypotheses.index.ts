import { createRouter } from "../../lib/create-app.js";
import {
  archiveHypothesisHandler,
  createHypothesisHandler,
  getHypothesisHandler,
  listHypothesesHandler,
  updateHypothesisHandler,
} from "./hypotheses.handlers.js";
import {
  archiveHypothesis,
  createHypothesis,
  getHypothesis,
  listHypotheses,
  updateHypothesis,
} from "./hypotheses.routes.js";

export const hypothesesRouter = createRouter()
  .openapi(createHypothesis, createHypothesisHandler)
  .openapi(listHypotheses, listHypothesesHandler)
  .openapi(getHypothesis, getHypothesisHandler)
  .openapi(updateHypothesis, updateHypothesisHandler)
  .openapi(archiveHypothesis, archiveHypothesisHandler);
