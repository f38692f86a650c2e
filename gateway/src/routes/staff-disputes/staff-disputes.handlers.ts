import { jsonAnswer } from "../../lib/json-answer.js";
import type { RouteHandler } from "@hono/zod-openapi";
import { asCaller } from "../../lib/clients.js";
import type { GatewayEnv } from "../../lib/create-app.js";
import { detailsJson } from "../../lib/experiments-json.js";
import { optionalTotalPaginationJson } from "../../lib/pagination.js";
import {
  evaluationAnswerJson,
  hasResults,
  resultsAnswerJson,
  staffDisputeJson,
} from "../../lib/results-json.js";
import { callService } from "../../lib/service-call.js";
import type * as routes from "./staff-disputes.routes.js";

export const listDisputesHandler: RouteHandler<typeof routes.listDisputes, GatewayEnv> = async (c) => {
  const { status, limit, cursor, include_total } = c.req.valid("query");
  const page = await callService(() =>
    c
      .get("runtime")
      .clients.experiments.listDisputes(
        { status: status ?? "", limit, cursor: cursor ?? "", includeTotal: include_total },
        asCaller(),
      ),
  );
  return c.json(
    { disputes: page.disputes.map(staffDisputeJson), pagination: optionalTotalPaginationJson(page) },
    200,
  );
};

export const getDisputeHandler: RouteHandler<typeof routes.getDispute, GatewayEnv> = async (c) => {
  const { dispute_id } = c.req.valid("param");
  const answer = await callService(() =>
    c.get("runtime").clients.experiments.getDispute({ disputeId: dispute_id }, asCaller()),
  );
  return jsonAnswer(
    c,
    {
      dispute: staffDisputeJson(answer.dispute),
      experiment: detailsJson(answer.experiment),
      results: hasResults(answer) ? resultsAnswerJson(answer) : null,
      evaluation: evaluationAnswerJson(answer),
    },
    200,
  );
};

export const resolveDisputeHandler: RouteHandler<typeof routes.resolveDispute, GatewayEnv> = async (c) => {
  const { dispute_id } = c.req.valid("param");
  const body = c.req.valid("json");
  const answer = await callService(() =>
    c.get("runtime").clients.experiments.resolveDispute(
      {
        disputeId: dispute_id,
        outcome: body.outcome,
        // Only a split names amounts; for the others the service moves the whole stake.
        requesterAmountCents: body.requester_amount_usd ?? 0n,
        operatorAmountCents: body.operator_amount_usd ?? 0n,
        note: body.note ?? "",
      },
      asCaller(),
    ),
  );
  return jsonAnswer(
    c,
    { dispute: staffDisputeJson(answer.dispute), experiment: detailsJson(answer.experiment) },
    200,
  );
};
