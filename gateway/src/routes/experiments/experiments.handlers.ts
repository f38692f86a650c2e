import { jsonAnswer } from "../../lib/json-answer.js";
import type { RouteHandler } from "@hono/zod-openapi";
import { ExperimentStatus } from "@petri/contracts/experiments";
import { asCaller } from "../../lib/clients.js";
import type { GatewayEnv } from "../../lib/create-app.js";
import {
  cancellationAnswerJson,
  detailsJson,
  statusFromName,
  submissionJson,
  summaryJson,
  timestampFromIso,
} from "../../lib/experiments-json.js";
import { idempotencyKey } from "../../lib/idempotency-key.js";
import { optionalTotalPaginationJson } from "../../lib/pagination.js";
import { callService } from "../../lib/service-call.js";
import type * as routes from "./experiments.routes.js";

export const createExperimentHandler: RouteHandler<typeof routes.createExperiment, GatewayEnv> = async (
  c,
) => {
  const key = idempotencyKey(c.req.header("idempotency-key"));
  const { draft } = c.req.valid("query");
  const body = c.req.valid("json");
  const answer = await callService(() =>
    c
      .get("runtime")
      .clients.experiments.createExperiment(
        { requestJson: JSON.stringify(body), saveAsDraft: draft, idempotencyKey: key },
        asCaller(),
      ),
  );
  // Rendered only from the stored answer, so a replay is the first answer byte for byte.
  const submission = submissionJson(answer.experiment, answer.warnings);
  c.header("Location", submission.links.self);
  if (answer.replayed) c.header("Idempotent-Replayed", "true");
  return c.json(submission, 201);
};

export const submitDraftHandler: RouteHandler<typeof routes.submitDraft, GatewayEnv> = async (c) => {
  const { experiment_id } = c.req.valid("param");
  const answer = await callService(() =>
    c.get("runtime").clients.experiments.submitDraft({ experimentId: experiment_id }, asCaller()),
  );
  return c.json(submissionJson(answer.experiment, answer.warnings), 200);
};

export const listExperimentsHandler: RouteHandler<typeof routes.listExperiments, GatewayEnv> = async (c) => {
  const query = c.req.valid("query");
  const page = await callService(() =>
    c.get("runtime").clients.experiments.listExperiments(
      {
        status: query.status ? statusFromName(query.status) : ExperimentStatus.UNSPECIFIED,
        createdAfter: timestampFromIso(query.created_after),
        createdBefore: timestampFromIso(query.created_before),
        limit: query.limit,
        cursor: query.cursor ?? "",
        includeTotal: query.include_total,
      },
      asCaller(),
    ),
  );
  return c.json(
    { experiments: page.experiments.map(summaryJson), pagination: optionalTotalPaginationJson(page) },
    200,
  );
};

export const getExperimentHandler: RouteHandler<typeof routes.getExperiment, GatewayEnv> = async (c) => {
  const { experiment_id } = c.req.valid("param");
  const { experiment } = await callService(() =>
    c.get("runtime").clients.experiments.getExperiment({ experimentId: experiment_id }, asCaller()),
  );
  return jsonAnswer(c, detailsJson(experiment), 200);
};

export const updateExperimentHandler: RouteHandler<typeof routes.updateExperiment, GatewayEnv> = async (
  c,
) => {
  const { experiment_id } = c.req.valid("param");
  const patch = c.req.valid("json");
  const { experiment } = await callService(() =>
    c
      .get("runtime")
      .clients.experiments.updateExperiment(
        { experimentId: experiment_id, patchJson: JSON.stringify(patch) },
        asCaller(),
      ),
  );
  return jsonAnswer(c, detailsJson(experiment), 200);
};

export const cancelExperimentHandler: RouteHandler<typeof routes.cancelExperiment, GatewayEnv> = async (
  c,
) => {
  const { experiment_id } = c.req.valid("param");
  const { reason } = c.req.valid("json");
  const { experiment } = await callService(() =>
    c
      .get("runtime")
      .clients.experiments.cancelExperiment({ experimentId: experiment_id, reason }, asCaller()),
  );
  return c.json(cancellationAnswerJson(experiment), 200);
};

export const acceptProtocolProposalHandler: RouteHandler<
  typeof routes.acceptProtocolProposal,
  GatewayEnv
> = async (c) => {
  const { experiment_id } = c.req.valid("param");
  const { experiment } = await callService(() =>
    c.get("runtime").clients.experiments.acceptProtocolProposal({ experimentId: experiment_id }, asCaller()),
  );
  return jsonAnswer(c, detailsJson(experiment), 200);
};

export const requestProtocolChangesHandler: RouteHandler<
  typeof routes.requestProtocolChanges,
  GatewayEnv
> = async (c) => {
  const { experiment_id } = c.req.valid("param");
  const { comments } = c.req.valid("json");
  const { experiment } = await callService(() =>
    c
      .get("runtime")
      .clients.experiments.requestProtocolChanges({ experimentId: experiment_id, comments }, asCaller()),
  );
  return jsonAnswer(c, detailsJson(experiment), 200);
};
