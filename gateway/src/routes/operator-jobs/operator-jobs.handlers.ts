import type { RouteHandler } from "@hono/zod-openapi";
import { BULK_CALL_TIMEOUT_MS, asCaller } from "../../lib/clients.js";
import type { GatewayEnv } from "../../lib/create-app.js";
import { jobJson } from "../../lib/marketplace-json.js";
import { paginationJson } from "../../lib/pagination.js";
import {
  claimAnswerJson,
  issueAnswerJson,
  startAnswerJson,
  submissionAnswerJson,
} from "../../lib/results-json.js";
import { callService } from "../../lib/service-call.js";
import type { claimJob, listJobs, reportIssue, startJob, submitResults } from "./operator-jobs.routes.js";

export const listJobsHandler: RouteHandler<typeof listJobs, GatewayEnv> = async (c) => {
  const { limit, cursor } = c.req.valid("query");
  const page = await callService(() =>
    c.get("runtime").clients.marketplace.listJobs({ limit, cursor: cursor ?? "" }, asCaller()),
  );
  return c.json({ jobs: page.jobs.map(jobJson), pagination: paginationJson(page) }, 200);
};

export const claimJobHandler: RouteHandler<typeof claimJob, GatewayEnv> = async (c) => {
  const { experiment_id } = c.req.valid("param");
  const body = c.req.valid("json");
  const { experiment } = await callService(() =>
    c.get("runtime").clients.experiments.claimExperiment(
      {
        experimentId: experiment_id,
        equipmentConfirmation: body.equipment_confirmation,
        authorizationConfirmation: body.authorization_confirmation,
        estimatedStartDate: body.estimated_start_date ?? "",
        notes: body.notes ?? "",
      },
      asCaller(),
    ),
  );
  return c.json(claimAnswerJson(experiment), 200);
};

export const startJobHandler: RouteHandler<typeof startJob, GatewayEnv> = async (c) => {
  const { experiment_id } = c.req.valid("param");
  const { experiment } = await callService(() =>
    c.get("runtime").clients.experiments.startExperiment({ experimentId: experiment_id }, asCaller()),
  );
  return c.json(startAnswerJson(experiment), 200);
};

export const reportIssueHandler: RouteHandler<typeof reportIssue, GatewayEnv> = async (c) => {
  const { experiment_id } = c.req.valid("param");
  const { description, severity } = c.req.valid("json");
  const { experiment, issue } = await callService(() =>
    c
      .get("runtime")
      .clients.experiments.reportIssue({ experimentId: experiment_id, description, severity }, asCaller()),
  );
  return c.json(issueAnswerJson(experiment?.id ?? experiment_id, issue), 201);
};

export const submitResultsHandler: RouteHandler<typeof submitResults, GatewayEnv> = async (c) => {
  const { experiment_id } = c.req.valid("param");
  // The validator parsed the body only to check it is a JSON object; the service gets the
  // text exactly as sent (Hono keeps it: json() parses the cached text), so no number or
  // key is re-serialised on the way.
  const resultsJson = await c.req.text();
  const { experiment } = await callService(() =>
    c
      .get("runtime")
      .clients.experiments.submitResults(
        { experimentId: experiment_id, resultsJson },
        asCaller(BULK_CALL_TIMEOUT_MS),
      ),
  );
  return c.json(submissionAnswerJson(experiment), 200);
};
