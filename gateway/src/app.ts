import { type GatewayAppDeps, createApp } from "./lib/create-app.js";
import { buildDocument, registerSharedComponents } from "./lib/openapi.js";
import { apiKeysRouter } from "./routes/api-keys/api-keys.index.js";
import { authRouter } from "./routes/auth/auth.index.js";
import { configRouter } from "./routes/config/config.index.js";
import { createDocsRouter } from "./routes/docs/docs.index.js";
import { experimentsRouter } from "./routes/experiments/experiments.index.js";
import { filesRouter } from "./routes/files/files.index.js";
import { healthRouter } from "./routes/health/health.index.js";
import { cloudLabsRouter } from "./routes/cloud-labs/cloud-labs.index.js";
import { engineRouter } from "./routes/engine/engine.index.js";
import { hypothesesRouter } from "./routes/hypotheses/hypotheses.index.js";
import { matchesRouter } from "./routes/matches/matches.index.js";
import { operatorJobsRouter } from "./routes/operator-jobs/operator-jobs.index.js";
import { operatorProfileRouter } from "./routes/operator-profile/operator-profile.index.js";
import { paymentsRouter } from "./routes/payments/payments.index.js";
import { resultsRouter } from "./routes/results/results.index.js";
import { staffDisputesRouter } from "./routes/staff-disputes/staff-disputes.index.js";
import { staffLedgerRouter } from "./routes/staff-ledger/staff-ledger.index.js";
import { staffNotificationsRouter } from "./routes/staff-notifications/staff-notifications.index.js";
import { staffDeadLettersRouter } from "./routes/staff-dead-letters/staff-dead-letters.index.js";
import { staffOperatorsRouter } from "./routes/staff-operators/staff-operators.index.js";
import { staffReviewRouter } from "./routes/staff-review/staff-review.index.js";
import { staffRouter } from "./routes/staff/staff.index.js";
import { templatesRouter } from "./routes/templates/templates.index.js";
import { validationRouter } from "./routes/validation/validation.index.js";
import { webhookDeliveriesRouter } from "./routes/webhook-deliveries/webhook-deliveries.index.js";
import { webhooksRouter } from "./routes/webhooks/webhooks.index.js";

export { API_VERSION } from "./lib/openapi.js";

/**
 * The public REST API: every route, its OpenAPI 3.1 description at /openapi.json, and the
 * documentation pages at /docs (Swagger UI) and /redoc. Authentication, rate limits and the
 * error shape are in lib/create-app.ts and lib/guard.ts; the public routes in lib/access.ts.
 */
export function createGateway(deps: GatewayAppDeps) {
  const app = createApp(deps);
  registerSharedComponents(app);
  app.route("/", healthRouter);
  app.route("/", configRouter);
  app.route("/", authRouter);
  app.route("/", apiKeysRouter);
  app.route("/", staffRouter);
  app.route("/", experimentsRouter);
  app.route("/", validationRouter);
  app.route("/", templatesRouter);
  app.route("/", staffReviewRouter);
  app.route("/", resultsRouter);
  app.route("/", matchesRouter);
  app.route("/", paymentsRouter);
  app.route("/", operatorProfileRouter);
  app.route("/", operatorJobsRouter);
  app.route("/", filesRouter);
  app.route("/", staffOperatorsRouter);
  app.route("/", staffDisputesRouter);
  app.route("/", staffLedgerRouter);
  app.route("/", webhooksRouter);
  app.route("/", webhookDeliveriesRouter);
  app.route("/", staffNotificationsRouter);
  app.route("/", staffDeadLettersRouter);
  app.route("/", hypothesesRouter);
  app.route("/", engineRouter);
  app.route("/", cloudLabsRouter);
  let document: ReturnType<typeof buildDocument> | undefined;
  app.route(
    "/",
    createDocsRouter(() => (document ??= buildDocument(app))),
  );
  return app;
}

/** The OpenAPI document of a gateway (for scripts and tests; the routes do not depend on deps). */
export function openApiDocument(app: ReturnType<typeof createGateway>) {
  return buildDocument(app);
}
