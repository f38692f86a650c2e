import { jsonAnswer } from "../../lib/json-answer.js";
import type { RouteHandler } from "@hono/zod-openapi";
import type { Hypothesis } from "@petri/contracts/hypotheses";
import { asCaller } from "../../lib/clients.js";
import { detailsJson } from "../../lib/experiments-json.js";
import { idempotencyKey } from "../../lib/idempotency-key.js";
import { parseObjectText } from "../../lib/json-text.js";
import type { GatewayEnv } from "../../lib/create-app.js";
import { callService } from "../../lib/service-call.js";
import { isoOrNull } from "../../lib/timestamps.js";
import type * as routes from "./hypotheses.routes.js";

/** The public record, fixed key order; the service's "" for an absent value is null. */
export function hypothesisJson(hypothesis: Hypothesis | undefined) {
  if (!hypothesis) throw new Error("the hypotheses service returned no hypothesis");
  return {
    id: hypothesis.id,
    title: hypothesis.title,
    statement: hypothesis.statement,
    null_hypothesis: hypothesis.nullHypothesis || null,
    experiment_type: hypothesis.experimentType || null,
    status: hypothesis.status,
    intake_draft: parseObjectText(hypothesis.intakeDraftJson, {
      service: "hypotheses",
      what: "an intake draft",
    }),
    experiments_count: hypothesis.experimentsCount,
    engine_agent: hypothesis.engineAgent || null,
    engine_query: hypothesis.engineQuery || null,
    engine_response: parseObjectText(hypothesis.engineResponseJson, {
      service: "hypotheses",
      what: "an engine response",
    }),
    source_experiment_id: hypothesis.sourceExperimentId || null,
    created_at: isoOrNull(hypothesis.createdAt)!,
    updated_at: isoOrNull(hypothesis.updatedAt)!,
  };
}

const jsonText = (value: Record<string, unknown> | null | undefined) => (value ? JSON.stringify(value) : "");

export const createHypothesisHandler: RouteHandler<typeof routes.createHypothesis, GatewayEnv> = async (
  c,
) => {
  const body = c.req.valid("json");
  const { hypothesis } = await callService(() =>
    c.get("runtime").clients.hypotheses.createHypothesis(
      {
        title: body.title,
        statement: body.statement,
        nullHypothesis: body.null_hypothesis ?? "",
        experimentType: body.experiment_type ?? "",
        intakeDraftJson: jsonText(body.intake_draft),
        engineAgent: body.engine_agent ?? "",
        engineQuery: body.engine_query ?? "",
        engineResponseJson: jsonText(body.engine_response),
      },
      asCaller(),
    ),
  );
  const record = hypothesisJson(hypothesis);
  c.header("Location", `/hypotheses/${record.id}`);
  return c.json(record, 201);
};

export const listHypothesesHandler: RouteHandler<typeof routes.listHypotheses, GatewayEnv> = async (c) => {
  const query = c.req.valid("query");
  const page = await callService(() =>
    c.get("runtime").clients.hypotheses.listHypotheses(
      {
        status: query.status ?? "",
        experimentType: query.experiment_type ?? "",
        search: query.search ?? "",
        limit: query.limit,
        offset: query.offset,
      },
      asCaller(),
    ),
  );
  return c.json(
    {
      hypotheses: page.hypotheses.map(hypothesisJson),
      total: Number(page.total),
      limit: page.limit,
      offset: page.offset,
    },
    200,
  );
};

export const getHypothesisHandler: RouteHandler<typeof routes.getHypothesis, GatewayEnv> = async (c) => {
  const { hypothesis_id } = c.req.valid("param");
  const { hypothesis } = await callService(() =>
    c.get("runtime").clients.hypotheses.getHypothesis({ hypothesisId: hypothesis_id }, asCaller()),
  );
  return c.json(hypothesisJson(hypothesis), 200);
};

export const updateHypothesisHandler: RouteHandler<typeof routes.updateHypothesis, GatewayEnv> = async (
  c,
) => {
  const { hypothesis_id } = c.req.valid("param");
  const patch = c.req.valid("json");
  const { hypothesis } = await callService(() =>
    c
      .get("runtime")
      .clients.hypotheses.updateHypothesis(
        { hypothesisId: hypothesis_id, title: patch.title, statement: patch.statement, status: patch.status },
        asCaller(),
      ),
  );
  return c.json(hypothesisJson(hypothesis), 200);
};

export const archiveHypothesisHandler: RouteHandler<typeof routes.archiveHypothesis, GatewayEnv> = async (
  c,
) => {
  const { hypothesis_id } = c.req.valid("param");
  const { hypothesis } = await callService(() =>
    c.get("runtime").clients.hypotheses.archiveHypothesis({ hypothesisId: hypothesis_id }, asCaller()),
  );
  const { id, status } = hypothesisJson(hypothesis);
  return c.json({ id, status }, 200);
};

/**
 * One call: the experiments service reads the hypothesis from its own view of the hypotheses
 * events, decides who may, builds the request and its key and creates (or replays) the
 * experiment with the hypothesis as its source (D349). The hypothesis becomes USED when the
 * hypotheses service consumes the experiment's ExperimentSubmitted (which names it), shortly
 * after the answer (D334).
 */
export const hypothesisToExperimentHandler: RouteHandler<
  typeof routes.hypothesisToExperiment,
  GatewayEnv
> = async (c) => {
  const { hypothesis_id } = c.req.valid("param");
  const key = idempotencyKey(c.req.header("idempotency-key"));
  const body = (c.req.valid("json") as { additional_fields?: Record<string, unknown> } | undefined) ?? {};
  const answer = await callService(() =>
    c.get("runtime").clients.experiments.createExperimentFromHypothesis(
      {
        hypothesisId: hypothesis_id,
        additionalFieldsJson: jsonText(body.additional_fields),
        idempotencyKey: key,
      },
      asCaller(),
    ),
  );
  const experiment = detailsJson(answer.experiment);
  c.header("Location", experiment.links.self);
  if (answer.replayed) c.header("Idempotent-Replayed", "true");
  return jsonAnswer(c, experiment, 201);
};

/** One call: the hypotheses service reads the experiment from its own view and decides who may. */
export const hypothesisFromExperimentHandler: RouteHandler<
  typeof routes.hypothesisFromExperiment,
  GatewayEnv
> = async (c) => {
  const body = c.req.valid("json");
  const { hypothesis } = await callService(() =>
    c
      .get("runtime")
      .clients.hypotheses.createHypothesisFromExperiment(
        { experimentId: body.experiment_id, title: body.title ?? "" },
        asCaller(),
      ),
  );
  const record = hypothesisJson(hypothesis);
  c.header("Location", `/hypotheses/${record.id}`);
  return c.json(record, 201);
};
