/**
 * Which environment variables each process cannot start without, read from the code itself:
 * each process's configuration is parsed with an empty environment and every variable
 * reported as "is required but not set" (service-kit's loadConfig) is required. A variable
 * that gets a default, or is optional, is not.
 *
 * Services: the schemas and option readers their main.ts parses (the cluster host's base
 * schema for all of them, plus each service's own). The gateway declares its schema inside
 * main.ts, so its main.ts is started with an empty environment and its configuration error
 * read: it exits before it opens anything.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { cloudLabsOptionsFromEnv } from "@petri/cloud-labs";
import { engineOptionsFromEnv } from "@petri/engine";
import { blobStoreConfigSchema } from "@petri/experiments";
import { identityConfigSchema } from "@petri/identity";
import { notificationsConfigSchema } from "@petri/notifications";
import {
  ConfigError,
  baseServiceConfigSchema,
  loadConfig,
  webhookTestAllowlistConfigSchema,
} from "@petri/service-kit";
import { REPO_ROOT } from "./overlays.js";
import { HTTP_PORT } from "./processes.js";

type Env = Record<string, string | undefined>;
type ConfigReader = (env: Env) => unknown;

export const REQUIRED_NOT_SET = "is required but not set";

/** What each service's main.ts parses (through runClusterService and before it). */
const SERVICE_CONFIG: Record<string, readonly ConfigReader[]> = {
  identity: [(env) => loadConfig(identityConfigSchema(), env)],
  experiments: [
    (env) => loadConfig(blobStoreConfigSchema, env),
    (env) => loadConfig(webhookTestAllowlistConfigSchema(), env),
  ],
  marketplace: [],
  hypotheses: [],
  engine: [(env) => engineOptionsFromEnv(env)],
  "cloud-labs": [(env) => cloudLabsOptionsFromEnv(env)],
  notifications: [(env) => loadConfig(notificationsConfigSchema(), env)],
};

const clusterHost: ConfigReader = (env) =>
  loadConfig(baseServiceConfigSchema({ defaultPort: HTTP_PORT }), env);

/** The variables `read` reports missing when nothing is set. */
export function missingVariables(read: ConfigReader): string[] {
  try {
    read({});
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems.filter((p) => p.problem === REQUIRED_NOT_SET).map((p) => p.variable);
  }
}

export function serviceRequiredVariables(service: string): string[] {
  const readers = SERVICE_CONFIG[service];
  if (!readers) throw new Error(`no configuration known for service "${service}"`);
  return [...new Set([clusterHost, ...readers].flatMap(missingVariables))].sort();
}

/** The variables the gateway's main.ts reports missing, read from its configuration error. */
export function gatewayRequiredVariables(): string[] {
  const result = spawnSync(
    process.execPath,
    ["--conditions=@petri/source", "--import", "tsx", path.join(REPO_ROOT, "gateway/src/main.ts")],
    {
      cwd: REPO_ROOT,
      // Nothing but what node needs; PORT 0, loopback and no metrics listener should the configuration ever pass.
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        PORT: "0",
        HOST: "127.0.0.1",
        PETRI_METRICS_PORT: "0",
      },
      encoding: "utf8",
      timeout: 120_000,
    },
  );
  const names = [...result.stderr.matchAll(/^\s+- (\S+): is required but not set$/gm)].map((m) => m[1]!);
  if (result.status !== 1 || names.length === 0)
    throw new Error(
      `the gateway's main.ts should exit 1 naming its required variables; it exited ${result.status} with:\n${result.stderr}`,
    );
  return [...new Set(names)].sort();
}
