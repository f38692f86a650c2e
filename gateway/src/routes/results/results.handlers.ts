import type { RouteHandler } from "@hono/zod-openapi";
import { asCaller } from "../../lib/clients.js";
import type { GatewayEnv } from "../../lib/create-app.js";
import { approvalAnswerJson, disputeAnswerJson, resultsAnswerJson } from "../../lib/results-json.js";
import { callService } from "../../lib/service-call.js";
import type * as routes from "./results.routes.js";

export const getResultsHandler: RouteHandler<typeof routes.getResults, GatewayEnv> = async (c) => {
  const { experiment_id } = c.req.valid("param");
  const answer = await callService(() =>
    c.get("runtime").clients.experiments.getResults({ experimentId: experiment_id }, asCaller()),
  );
  return c.json(resultsAnswerJson(answer), 200);
};

export const approveResultsHandler: RouteHandler<typeof routes.approveResults, GatewayEnv> = async (c) => {
  const { experiment_id } = c.req.valid("param");
  const { rating, feedback } = c.req.valid("json");
  const answer = await callService(() =>
    c.get("runtime").clients.experiments.approveResults(
      // 0 and "" are the contract's "none given".
      { experimentId: experiment_id, rating: rating ?? 0, feedback: feedback ?? "" },
      asCaller(),
    ),
  );
  return c.json(approvalAnswerJson(answer.experiment, answer.paymentReleased), 200);
};

export const disputeResultsHandler: RouteHandler<typeof routes.disputeResults, GatewayEnv> = async (c) => {
  const { experiment_id } = c.req.valid("param");
  const { reason, description, evidence_urls } = c.req.valid("json");
  const answer = await callService(() =>
    c
      .get("runtime")
      .clients.experiments.disputeResults(
        { experimentId: experiment_id, reason, description, evidenceUrls: evidence_urls ?? [] },
        asCaller(),
      ),
  );
  return c.json(disputeAnswerJson(answer.experiment, answer.dispute), 201);
};
