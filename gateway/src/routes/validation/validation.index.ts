import { createRouter } from "../../lib/create-app.js";
import {
  estimateExperimentHandler,
  validateExperimentHandler,
  validateHypothesisHandler,
} from "./validation.handlers.js";
import { estimateExperiment, validateExperiment, validateHypothesis } from "./validation.routes.js";

export const validationRouter = createRouter({ errorPaths: true })
  .openapi(validateExperiment, validateExperimentHandler)
  .openapi(validateHypothesis, validateHypothesisHandler)
  .openapi(estimateExperiment, estimateExperimentHandler);
