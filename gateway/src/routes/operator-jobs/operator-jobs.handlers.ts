import type { RouteHandler } from "@hono/zod-openapi";
import { HTTPException } from "hono/http-exception";
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
import { RespondWith } from "../../lib/problem.js";
import { UploadRefused, discardBody, uploadMessages } from "../../lib/results-upload.js";
import { callService } from "../../lib/service-call.js";
import type * as routes from "./operator-jobs.routes.js";

export const listJobsHandler: RouteHandler<typeof routes.listJobs, GatewayEnv> = async (c) => {
  const { limit, cursor } = c.req.valid("query");
  const page = await callService(() =>
    c.get("runtime").clients.marketplace.listJobs({ limit, cursor: cursor ?? "" }, asCaller()),
  );
  return c.json({ jobs: page.jobs.map(jobJson), pagination: paginationJson(page) }, 200);
};

export const claimJobHandler: RouteHandler<typeof routes.claimJob, GatewayEnv> = async (c) => {
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

export const startJobHandler: RouteHandler<typeof routes.startJob, GatewayEnv> = async (c) => {
  const { experiment_id } = c.req.valid("param");
  const { experiment } = await callService(() =>
    c.get("runtime").clients.experiments.startExperiment({ experimentId: experiment_id }, asCaller()),
  );
  return c.json(startAnswerJson(experiment), 200);
};

export const reportIssueHandler: RouteHandler<typeof routes.reportIssue, GatewayEnv> = async (c) => {
  const { experiment_id } = c.req.valid("param");
  const { description, severity } = c.req.valid("json");
  const { experiment, issue } = await callService(() =>
    c
      .get("runtime")
      .clients.experiments.reportIssue({ experimentId: experiment_id, description, severity }, asCaller()),
  );
  return c.json(issueAnswerJson(experiment?.id ?? experiment_id, issue), 201);
};

/** Content types the submit route reads as JSON (as Hono's JSON validator accepts them). */
const JSON_CONTENT_TYPE = /^application\/([a-z-.]+\+)?json(\s*;.*)?$/i;

export const submitResultsHandler: RouteHandler<typeof routes.submitResults, GatewayEnv> = async (c) => {
  const { experiment_id } = c.req.valid("param");
  if (!JSON_CONTENT_TYPE.test(c.req.header("content-type") ?? "")) throw new HTTPException(415);
  // The body is read as a stream and sent on in pieces (lib/results-upload.ts): neither the
  // gateway nor the service holds it whole. A refusal of the body's own (422, 413) ends the
  // stream, which the service sees as a cancelled upload; that refusal is the answer.
  let refusal: UploadRefused | undefined;
  const body =
    c.req.raw.body ?? new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
  async function* messages() {
    try {
      yield* uploadMessages(experiment_id, body);
    } catch (error) {
      if (error instanceof UploadRefused) refusal = error;
      throw error;
    }
  }
  try {
    const { experiment } = await callService(() =>
      c.get("runtime").clients.experiments.uploadResults(messages(), asCaller(BULK_CALL_TIMEOUT_MS)),
    );
    return c.json(submissionAnswerJson(experiment), 200);
  } catch (error) {
    // The service may refuse early (a file too large, not the lab's job): the client is still
    // sending, and gets the answer once the rest of its body (within the limit) is discarded.
    await discardBody(body);
    if (refusal) throw new RespondWith(c.json(refusal.body, refusal.status));
    throw error;
  }
};
