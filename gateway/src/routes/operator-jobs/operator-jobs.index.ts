import { createRouter } from "../../lib/create-app.js";
import {
  claimJobHandler,
  listJobsHandler,
  reportIssueHandler,
  startJobHandler,
  submitResultsHandler,
} from "./operator-jobs.handlers.js";
import { claimJob, listJobs, reportIssue, startJob, submitResults } from "./operator-jobs.routes.js";

export const operatorJobsRouter = createRouter({ errorPaths: true })
  .openapi(listJobs, listJobsHandler)
  .openapi(claimJob, claimJobHandler)
  .openapi(startJob, startJobHandler)
  .openapi(reportIssue, reportIssueHandler)
  .openapi(submitResults, submitResultsHandler);
