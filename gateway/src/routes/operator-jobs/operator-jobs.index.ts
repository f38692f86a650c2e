import { createRouter } from "../../lib/create-app.js";
import { ResultsSubmissionSchema } from "../../lib/results-model.js";
import {
  claimJobHandler,
  listJobsHandler,
  reportIssueHandler,
  startJobHandler,
  submitResultsHandler,
} from "./operator-jobs.handlers.js";
import { claimJob, listJobs, reportIssue, startJob, submitResults } from "./operator-jobs.routes.js";

const router = createRouter({ errorPaths: true });
// The submit route refers to it without validating by it (it streams its body).
router.openAPIRegistry.register("ResultsSubmission", ResultsSubmissionSchema);

export const operatorJobsRouter = router
  .openapi(listJobs, listJobsHandler)
  .openapi(claimJob, claimJobHandler)
  .openapi(startJob, startJobHandler)
  .openapi(reportIssue, reportIssueHandler)
  .openapi(submitResults, submitResultsHandler);
