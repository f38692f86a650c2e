import { createRouter } from "../../lib/create-app.js";
import {
  archiveHypothesisHandler,
  createHypothesisHandler,
  getHypothesisHandler,
  hypothesisFromExperimentHandler,
  hypothesisToExperimentHandler,
  listHypothesesHandler,
  updateHypothesisHandler,
} from "./hypotheses.handlers.js";
import {
  archiveHypothesis,
  createHypothesis,
  getHypothesis,
  hypothesisFromExperiment,
  hypothesisToExperiment,
  listHypotheses,
  updateHypothesis,
} from "./hypotheses.routes.js";

export const hypothesesRouter = createRouter()
  .openapi(hypothesisFromExperiment, hypothesisFromExperimentHandler)
  .openapi(createHypothesis, createHypothesisHandler)
  .openapi(listHypotheses, listHypothesesHandler)
  .openapi(getHypothesis, getHypothesisHandler)
  .openapi(updateHypothesis, updateHypothesisHandler)
  .openapi(archiveHypothesis, archiveHypothesisHandler)
  .openapi(hypothesisToExperiment, hypothesisToExperimentHandler);
