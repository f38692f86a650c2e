import { createRouter } from "../../lib/create-app.js";
import {
  cancelSubmissionHandler,
  getProviderHandler,
  getSubmissionHandler,
  getSubmissionRawDataHandler,
  interpretHandler,
  listProvidersHandler,
  listSubmissionsHandler,
  listSupportedTypesHandler,
  translateExperimentHandler,
  translateHandler,
  validateHandler,
} from "./cloud-labs.handlers.js";
import {
  cancelSubmission,
  getProvider,
  getSubmission,
  getSubmissionRawData,
  interpret,
  listProviders,
  listSubmissions,
  listSupportedTypes,
  translate,
  translateExperiment,
  validate,
} from "./cloud-labs.routes.js";

export const cloudLabsRouter = createRouter()
  .openapi(listProviders, listProvidersHandler)
  .openapi(getProvider, getProviderHandler)
  .openapi(listSupportedTypes, listSupportedTypesHandler)
  .openapi(interpret, interpretHandler)
  .openapi(translate, translateHandler)
  .openapi(validate, validateHandler)
  .openapi(translateExperiment, translateExperimentHandler)
  .openapi(listSubmissions, listSubmissionsHandler)
  .openapi(getSubmission, getSubmissionHandler)
  .openapi(cancelSubmission, cancelSubmissionHandler)
  .openapi(getSubmissionRawData, getSubmissionRawDataHandler);
