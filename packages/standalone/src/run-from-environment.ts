/**
 * The standalone process as `npm start` runs it (after main.ts): the configuration from the
 * environment, the host, the banner and the signal handlers.
 */
import { mkdirSync } from "node:fs";
import { z } from "zod";
import {
  createLogger,
  createShutdown,
  exitOnConfigError,
  startTracing,
  failpoints,
  installSignalHandlers,
  loadConfig,
  logFormatSchema,
  logLevelSchema,
  metricsListenerConfigSchema,
  portSchema,
  systemClock,
  webhookTestAllowlistConfigSchema,
  webhookTestAllowlistFromConfig,
} from "@petri/service-kit";
import { cloudLabsOptionsFromEnv } from "@petri/cloud-labs";
import { retentionFromEnv } from "@petri/events";
import { engineOptionsFromEnv } from "@petri/engine";
import { standaloneIdentityConfigSchema, standaloneIdentityOptions } from "@petri/identity";
import { notificationsOptionsFromConfig, standaloneNotificationsConfigSchema } from "@petri/notifications";
import { corsOriginsSchema, trustProxySchema } from "@petri/gateway";
import { DEFAULT_DATA_DIR, resolveDataDir } from "./data-dir.js";
import { type StandaloneDatabase, startStandalone } from "./host.js";

const config = exitOnConfigError(() =>
  loadConfig(
    z
      .object({
        PORT: portSchema.default(8080),
        HOST: z.string().default("127.0.0.1"),
        PETRI_DATA_DIR: z.string().default(DEFAULT_DATA_DIR),
        LOG_LEVEL: logLevelSchema.default("info"),
        LOG_FORMAT: logFormatSchema.default("json"),
        PETRI_CORS_ORIGINS: corsOriginsSchema,
        // As the cluster gateway: take the client address from the last X-Forwarded-For entry.
        PETRI_TRUST_PROXY: trustProxySchema,
        // An existing PostgreSQL database instead of the embedded server (one schema per service).
        PETRI_DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
        // The embedded engine: a PostgreSQL server of its own (default), or PGlite in this process.
        PETRI_EMBEDDED_DB: z.enum(["postgres", "pglite"]).default("postgres"),
      })
      .extend(metricsListenerConfigSchema.shape),
  ),
);
// One process, one trace resource: spans tell the services apart by their RPC and messaging names.
const tracing = await exitOnConfigError(() => startTracing({ serviceName: "petri" }));
const logger = createLogger({
  service: "standalone",
  level: config.LOG_LEVEL,
  format: config.LOG_FORMAT,
});
const dataDir = resolveDataDir(config.PETRI_DATA_DIR);
if (dataDir !== "memory://") mkdirSync(dataDir, { recursive: true });

// Identity's KEK and API-key pepper come from the environment or, when unset, from a file
// created once under the data directory, so tokens and keys survive restarts.
const identityConfig = exitOnConfigError(() => loadConfig(standaloneIdentityConfigSchema()));
// A damaged secrets file is a ConfigError naming it: reported like any configuration problem.
const identity = await exitOnConfigError(() => standaloneIdentityOptions(identityConfig, dataDir));
// Notifications: SMTP when PETRI_SMTP_HOST is set (else mail stays in its sent_mail table), and
// the key sealing webhook secrets from PETRI_NOTIFICATIONS_KEK or a file under the data directory.
const notifications = notificationsOptionsFromConfig(
  exitOnConfigError(() => loadConfig(standaloneNotificationsConfigSchema())),
  dataDir,
);

// Experiments checks webhook URLs at registration; PETRI_WEBHOOK_TEST_ALLOWLIST (tests only,
// refused when NODE_ENV=production) is read with the same schema as notifications reads it.
const experiments = {
  webhookUrlCheck: {
    allowlist: webhookTestAllowlistFromConfig(
      exitOnConfigError(() => loadConfig(webhookTestAllowlistConfigSchema())),
    ),
  },
};

// The engine: run limits, and an LLM / literature provider when PETRI_ENGINE_LLM_* /
// PETRI_ENGINE_LITERATURE are set (else the offline rules engine alone).
const engine = exitOnConfigError(() => engineOptionsFromEnv());
// Cloud labs: the sandbox lab's timing, and a real lab's run API when PETRI_CLOUDLABS_HTTP_* are set.
const cloudlabs = exitOnConfigError(() => cloudLabsOptionsFromEnv());
// How long the messaging tables keep rows (README "Retention"); too short an inbox is refused.
const retention = exitOnConfigError(() => retentionFromEnv());

const database: StandaloneDatabase =
  config.PETRI_DATABASE_URL !== undefined
    ? { kind: "url", url: config.PETRI_DATABASE_URL }
    : config.PETRI_EMBEDDED_DB === "pglite"
      ? { kind: "pglite" }
      : { kind: "embedded" };
const databaseLabel = {
  url: "PostgreSQL at PETRI_DATABASE_URL",
  pglite: "PGlite in this process",
  embedded: "embedded PostgreSQL",
}[database.kind];

const petri = await startStandalone({
  dataDir,
  database,
  identity,
  notifications,
  experiments,
  engine,
  cloudlabs,
  retention,
  gateway: { corsOrigins: config.PETRI_CORS_ORIGINS, trustProxy: config.PETRI_TRUST_PROXY },
  port: config.PORT,
  host: config.HOST,
  // Prometheus' port, apart from the API's; PETRI_METRICS_PORT=0 turns it off.
  ...(config.PETRI_METRICS_PORT === 0
    ? {}
    : { metrics: { port: config.PETRI_METRICS_PORT, host: config.PETRI_METRICS_HOST } }),
  logger,
  clock: systemClock,
  failpoints,
});
process.stdout.write(
  [
    "",
    `Petri is running (standalone: every service in this process, data in ${dataDir}, ${databaseLabel})`,
    `  API          ${petri.url}`,
    `  health       ${petri.url}/health`,
    `  OpenAPI 3.1  ${petri.url}/openapi.json`,
    ...(petri.metricsUrl ? [`  metrics      ${petri.metricsUrl}`] : []),
    ...(tracing.url ? [`  traces to    ${tracing.url}`] : []),
    "Stop with Ctrl-C.",
    "",
    "",
  ].join("\n"),
);
installSignalHandlers(
  createShutdown({
    logger,
    timeoutMs: 25_000,
    steps: [
      { name: "stop standalone", run: () => petri.stop() },
      { name: "export buffered spans", run: () => tracing.shutdown() },
    ],
  }),
);
