import type { RouteHandler, z } from "@hono/zod-openapi";
import { BULK_CALL_TIMEOUT_MS, asCaller } from "../../lib/clients.js";
import type { GatewayEnv } from "../../lib/create-app.js";
import { callService } from "../../lib/service-call.js";
import {
  interpretationJson,
  providerJson,
  providerSummaryJson,
  submissionJson,
  translationJson,
  turnaroundJson,
} from "../../lib/cloud-labs-json.js";
import type * as routes from "./cloud-labs.routes.js";

export const listProvidersHandler: RouteHandler<typeof routes.listProviders, GatewayEnv> = async (c) => {
  const { providers } = await callService(() =>
    c.get("runtime").clients.cloudlabs.listProviders({}, asCaller()),
  );
  return c.json({ providers: providers.map(providerSummaryJson) }, 200);
};

export const getProviderHandler: RouteHandler<typeof routes.getProvider, GatewayEnv> = async (c) => {
  const { provider_id } = c.req.valid("param");
  const { provider } = await callService(() =>
    c.get("runtime").clients.cloudlabs.getProvider({ providerId: provider_id }, asCaller()),
  );
  return c.json(providerJson(provider), 200);
};

export const listSupportedTypesHandler: RouteHandler<typeof routes.listSupportedTypes, GatewayEnv> = async (
  c,
) => {
  const { supportedTypes } = await callService(() =>
    c.get("runtime").clients.cloudlabs.listSupportedTypes({}, asCaller()),
  );
  return c.json(
    {
      supported_types: supportedTypes.map((t) => ({
        experiment_type: t.experimentType,
        providers: [...t.providers],
        description: t.description,
      })),
    },
    200,
  );
};

export const interpretHandler: RouteHandler<typeof routes.interpret, GatewayEnv> = async (c) => {
  const body = c.req.valid("json");
  const answer = await callService(() =>
    c.get("runtime").clients.cloudlabs.interpretIntake(
      { intakeJson: JSON.stringify(body.intake), providerId: body.provider_id ?? "" },
      // A language model may take a while; the service answers with the rules when it does.
      asCaller(BULK_CALL_TIMEOUT_MS),
    ),
  );
  return c.json(
    {
      interpretation: interpretationJson(answer) as z.infer<
        typeof routes.InterpretationSchema
      >["interpretation"],
      interpreter: answer.interpreter,
    },
    200,
  );
};

export const translateHandler: RouteHandler<typeof routes.translate, GatewayEnv> = async (c) => {
  const body = c.req.valid("json");
  const { translation } = await callService(() =>
    c
      .get("runtime")
      .clients.cloudlabs.translateIntake(
        { intakeJson: JSON.stringify(body.intake), providerId: body.provider_id },
        asCaller(),
      ),
  );
  return c.json(translationJson(translation), 200);
};

export const validateHandler: RouteHandler<typeof routes.validate, GatewayEnv> = async (c) => {
  const body = c.req.valid("json");
  const answer = await callService(() =>
    c
      .get("runtime")
      .clients.cloudlabs.validateIntake(
        { intakeJson: JSON.stringify(body.intake), providerId: body.provider_id },
        asCaller(),
      ),
  );
  if (!answer.valid)
    return c.json(
      {
        valid: false,
        provider_id: answer.providerId,
        errors: answer.errors.map((e) => ({ field: e.field, message: e.message })),
      },
      200,
    );
  return c.json(
    {
      valid: true,
      provider_id: answer.providerId,
      warnings: [...answer.warnings],
      estimated_cost_usd: Number(answer.estimatedCostUsd),
      estimated_turnaround_days: turnaroundJson(answer.estimatedTurnaroundDays),
    },
    200,
  );
};

/** One call: the cloudlabs service reads the experiment from its own view and decides who may. */
export const translateExperimentHandler: RouteHandler<typeof routes.translateExperiment, GatewayEnv> = async (
  c,
) => {
  const { experiment_id } = c.req.valid("param");
  const { provider_id } = c.req.valid("json");
  const answer = await callService(() =>
    c
      .get("runtime")
      .clients.cloudlabs.translateExperiment(
        { experimentId: experiment_id, providerId: provider_id },
        asCaller(),
      ),
  );
  const submission = submissionJson(answer.submission);
  c.header("Location", `/cloud-labs/submissions/${submission.id}`);
  return c.json({ ...translationJson(answer.translation), submission }, 201);
};

export const listSubmissionsHandler: RouteHandler<typeof routes.listSubmissions, GatewayEnv> = async (c) => {
  const query = c.req.valid("query");
  const page = await callService(() =>
    c.get("runtime").clients.cloudlabs.listSubmissions(
      {
        experimentId: query.experiment_id ?? "",
        providerId: query.provider_id ?? "",
        status: query.status ?? "",
        limit: query.limit,
        offset: query.offset,
      },
      asCaller(),
    ),
  );
  return c.json(
    {
      submissions: page.submissions.map(submissionJson),
      total: Number(page.total),
      limit: page.limit,
      offset: page.offset,
    },
    200,
  );
};

export const getSubmissionHandler: RouteHandler<typeof routes.getSubmission, GatewayEnv> = async (c) => {
  const { submission_id } = c.req.valid("param");
  const { submission } = await callService(() =>
    c.get("runtime").clients.cloudlabs.getSubmission({ submissionId: submission_id }, asCaller()),
  );
  return c.json(submissionJson(submission), 200);
};

export const cancelSubmissionHandler: RouteHandler<typeof routes.cancelSubmission, GatewayEnv> = async (
  c,
) => {
  const { submission_id } = c.req.valid("param");
  const { submission } = await callService(() =>
    c.get("runtime").clients.cloudlabs.cancelSubmission({ submissionId: submission_id }, asCaller()),
  );
  return c.json(submissionJson(submission), 200);
};

export const getSubmissionRawDataHandler: RouteHandler<
  typeof routes.getSubmissionRawData,
  GatewayEnv
> = async (c) => {
  const { submission_id } = c.req.valid("param");
  const raw = await callService(() =>
    c.get("runtime").clients.cloudlabs.getSubmissionRawData({ submissionId: submission_id }, asCaller()),
  );
  c.header("Content-Type", raw.contentType);
  return c.body(raw.data as Uint8Array<ArrayBuffer>, 200);
};
