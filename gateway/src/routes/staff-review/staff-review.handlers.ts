import { jsonAnswer } from "../../lib/json-answer.js";
import type { RouteHandler } from "@hono/zod-openapi";
import { asCaller } from "../../lib/clients.js";
import type { GatewayEnv } from "../../lib/create-app.js";
import { detailsJson, summaryJson } from "../../lib/experiments-json.js";
import { optionalTotalPaginationJson } from "../../lib/pagination.js";
import { callService } from "../../lib/service-call.js";
import type * as routes from "./staff-review.routes.js";

export const listReviewQueueHandler: RouteHandler<typeof routes.listReviewQueue, GatewayEnv> = async (c) => {
  const { limit, cursor, include_total } = c.req.valid("query");
  const page = await callService(() =>
    c
      .get("runtime")
      .clients.experiments.listReviewQueue(
        { limit, cursor: cursor ?? "", includeTotal: include_total },
        asCaller(),
      ),
  );
  return c.json(
    { experiments: page.experiments.map(summaryJson), pagination: optionalTotalPaginationJson(page) },
    200,
  );
};

export const approveReviewHandler: RouteHandler<typeof routes.approveReview, GatewayEnv> = async (c) => {
  const { experiment_id } = c.req.valid("param");
  const { note = "" } = c.req.valid("json");
  const { experiment } = await callService(() =>
    c.get("runtime").clients.experiments.approveReview({ experimentId: experiment_id, note }, asCaller()),
  );
  return jsonAnswer(c, detailsJson(experiment), 200);
};

export const rejectReviewHandler: RouteHandler<typeof routes.rejectReview, GatewayEnv> = async (c) => {
  const { experiment_id } = c.req.valid("param");
  const { reason } = c.req.valid("json");
  const { experiment } = await callService(() =>
    c.get("runtime").clients.experiments.rejectReview({ experimentId: experiment_id, reason }, asCaller()),
  );
  return jsonAnswer(c, detailsJson(experiment), 200);
};

export const proposeProtocolHandler: RouteHandler<typeof routes.proposeProtocol, GatewayEnv> = async (c) => {
  const { experiment_id } = c.req.valid("param");
  const { protocol, note = "" } = c.req.valid("json");
  const { experiment } = await callService(() =>
    c
      .get("runtime")
      .clients.experiments.proposeProtocol(
        { experimentId: experiment_id, protocolJson: JSON.stringify(protocol), note },
        asCaller(),
      ),
  );
  return jsonAnswer(c, detailsJson(experiment), 200);
};
