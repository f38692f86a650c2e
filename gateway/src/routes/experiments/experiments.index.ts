import { createRouter } from "../../lib/create-app.js";
import {
  acceptProtocolProposalHandler,
  cancelExperimentHandler,
  createExperimentHandler,
  getExperimentHandler,
  listExperimentsHandler,
  requestProtocolChangesHandler,
  submitDraftHandler,
  updateExperimentHandler,
} from "./experiments.handlers.js";
import {
  acceptProtocolProposal,
  cancelExperiment,
  createExperiment,
  getExperiment,
  listExperiments,
  requestProtocolChanges,
  submitDraft,
  updateExperiment,
} from "./experiments.routes.js";

export const experimentsRouter = createRouter({ errorPaths: true })
  .openapi(createExperiment, createExperimentHandler)
  .openapi(listExperiments, listExperimentsHandler)
  .openapi(getExperiment, getExperimentHandler)
  .openapi(updateExperiment, updateExperimentHandler)
  .openapi(cancelExperiment, cancelExperimentHandler)
  .openapi(submitDraft, submitDraftHandler)
  .openapi(acceptProtocolProposal, acceptProtocolProposalHandler)
  .openapi(requestProtocolChanges, requestProtocolChangesHandler);
