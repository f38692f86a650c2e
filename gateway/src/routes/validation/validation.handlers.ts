import type { RouteHandler } from "@hono/zod-openapi";
import { asCaller } from "../../lib/clients.js";
import type { GatewayEnv } from "../../lib/create-app.js";
import { estimateJson, issueJson, warningJson } from "../../lib/experiments-json.js";
import { callService } from "../../lib/service-call.js";
import type * as routes from "./validation.routes.js";

export const validateExperimentHandler: RouteHandler<typeof routes.validateExperiment, GatewayEnv> = async (
  c,
) => {
  const body = c.req.valid("json");
  const result = await callService(() =>
    c
      .get("runtime")
      .clients.experiments.validateExperiment({ requestJson: JSON.stringify(body) }, asCaller()),
  );
  return c.json(
    {
      valid: result.valid,
      errors: result.errors.map(issueJson),
      warnings: result.warnings.map(warningJson),
      safety_flags: [...result.safetyFlags],
    },
    200,
  );
};

export const validateHypothesisHandler: RouteHandler<typeof routes.validateHypothesis, GatewayEnv> = async (
  c,
) => {
  const { statement = "", null_hypothesis = "", rationale = "" } = c.req.valid("json");
  const result = await callService(() =>
    c
      .get("runtime")
      .clients.experiments.validateHypothesis(
        { statement, nullHypothesis: null_hypothesis, rationale },
        asCaller(),
      ),
  );
  return c.json(
    { valid: result.valid, errors: result.errors.map(issueJson), suggestions: [...result.suggestions] },
    200,
  );
};

export const estimateExperimentHandler: RouteHandler<typeof routes.estimateExperiment, GatewayEnv> = async (
  c,
) => {
  const body = c.req.valid("json");
  const { estimate } = await callService(() =>
    c
      .get("runtime")
      .clients.experiments.estimateExperiment({ requestJson: JSON.stringify(body) }, asCaller()),
  );
  if (!estimate) throw new Error("the experiments service returned no estimate");
  return c.json(estimateJson(estimate), 200);
};
