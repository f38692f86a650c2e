import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { cloudLabsOptionsFromEnv } from "@petri/cloud-labs";
import { engineOptionsFromEnv } from "@petri/engine";
import { loadOrCreateIdentitySecrets } from "@petri/identity";
import { notificationsOptionsFromConfig, standaloneNotificationsConfigSchema } from "@petri/notifications";
import {
  type Clock,
  Failpoints,
  type Logger,
  createLogger,
  loadConfig,
  systemClock,
  webhookTestAllowlistConfigSchema,
  webhookTestAllowlistFromConfig,
} from "@petri/service-kit";
import { type Standalone, startStandalone } from "@petri/standalone";
import { freePortBase, postgresAvailable, requireInfra } from "@petri/testkit";
import pg from "pg";
import { WEBHOOK_TEST_ALLOWLIST, receiverCertificate } from "./webhook-receiver.js";

/** The staff account every e2e host bootstraps (PETRI_STAFF_EMAIL / PETRI_STAFF_PASSWORD). */
export const STAFF = { email: "staff@petri.test", password: "staff password for e2e" };

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../../../..");
const adminUrl = process.env.PETRI_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** PostgreSQL and nats-server for cluster mode (under CI=true a missing one throws instead). */
export async function clusterInfraReady(): Promise<boolean> {
  return (
    requireInfra("PostgreSQL", await postgresAvailable()) &&
    requireInfra("nats-server on 127.0.0.1:4222", await reachable(4222))
  );
}

/**
 * The test settings of every host: loopback webhook receivers with the e2e certificate, and a
 * sandbox lab whose runs take about a second instead of minutes.
 */
async function testServiceEnv() {
  return {
    PETRI_WEBHOOK_TEST_ALLOWLIST: WEBHOOK_TEST_ALLOWLIST,
    PETRI_WEBHOOK_TEST_CA_FILE: (await receiverCertificate()).caFile,
    PETRI_CLOUDLABS_SANDBOX_STEP_MS: "300",
    PETRI_CLOUDLABS_POLL_INTERVAL_MS: "150",
  };
}

/**
 * Standalone mode on a data directory of its own (kept across restart()). `logger` replaces
 * the default (warnings and errors to stdout), e.g. to read the lines back; `clock` the
 * system clock.
 */
export async function startStandaloneHost(
  prefix: string,
  extraEnv: Record<string, string> = {},
  options: { logger?: Logger; clock?: Clock; failpoints?: Failpoints } = {},
) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `${prefix}-`));
  // Parsed like `npm start` parses its environment, with the test-only webhook settings:
  // notifications' deliveries and experiments' registration check both allow the loopback
  // receiver (the URLs are IP literals, so nothing is resolved).
  const env = { ...(await testServiceEnv()), ...extraEnv };
  const notifications = notificationsOptionsFromConfig(
    loadConfig(standaloneNotificationsConfigSchema(), env),
    dataDir,
  );
  const experiments = {
    webhookUrlCheck: {
      allowlist: webhookTestAllowlistFromConfig(loadConfig(webhookTestAllowlistConfigSchema(), env)),
    },
  };
  const start = async (): Promise<Standalone> =>
    startStandalone({
      dataDir,
      identity: { ...(await loadOrCreateIdentitySecrets(dataDir)), staff: STAFF },
      notifications,
      experiments,
      // The engine's limits and providers, parsed like `npm start` does (PETRI_ENGINE_*); made
      // anew for each start, as a stop releases them.
      engine: engineOptionsFromEnv(env),
      cloudlabs: cloudLabsOptionsFromEnv(env),
      port: 0,
      host: "127.0.0.1",
      // Prometheus' listener on a port of its own (a free one).
      metrics: { port: 0, host: "127.0.0.1" },
      logger: options.logger ?? createLogger({ service: "e2e", level: "warn" }),
      clock: options.clock ?? systemClock,
      failpoints: options.failpoints ?? new Failpoints(),
    });
  const host = {
    petri: await start(),
    async restart(): Promise<Standalone> {
      await host.petri.stop();
      host.petri = await start();
      return host.petri;
    },
    async stop(): Promise<void> {
      await host.petri.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return host;
}

/**
 * Cluster mode through deploy/local: a process per service on a fresh PostgreSQL database,
 * NATS JetStream, two gateway replicas (unless `options.gateways` says otherwise) and two
 * experiments replicas (every gateway spreads its calls over both), so concurrent requests
 * cross processes twice. `options.env` adds to every process's environment. `natsNodes: 3`
 * gives the deployment a three-node JetStream cluster of its own (streams with three
 * replicas) instead of the shared nats-server on 127.0.0.1:4222.
 */
export async function startClusterHost(
  label: string,
  options: { gateways?: 1 | 2; env?: Record<string, string>; natsNodes?: 1 | 3 } = {},
) {
  const gateways = options.gateways ?? 2;
  const database = `petri_e2e_${label}_${process.pid}_${Date.now()}`;
  const state = mkdtempSync(path.join(tmpdir(), `petri-cluster-${label}-`));
  const natsCluster = options.natsNodes === 3;
  // Services on base+1..base+7, experiments replica base+11, gateways base+20 and base+21 (their
  // metrics base+60 and base+61); with the NATS cluster its client ports base+30.., routes
  // base+40.., monitoring base+50...
  const natsOffsets = natsCluster ? [30, 31, 32, 40, 41, 42, 50, 51, 52] : [];
  const portBase = await freePortBase([1, 2, 3, 4, 5, 6, 7, 11, 20, 21, 60, 61, ...natsOffsets]);
  const gatewayPort = portBase + 20;
  const env = {
    ...process.env,
    PORT: String(gatewayPort),
    GATEWAY_REPLICAS: String(gateways),
    EXPERIMENTS_REPLICAS: "2",
    ...(await testServiceEnv()),
    PETRI_STAFF_EMAIL: STAFF.email,
    PETRI_STAFF_PASSWORD: STAFF.password,
    PETRI_PORT_BASE: String(portBase),
    PETRI_DB: database,
    PETRI_LOCAL_DIR: state,
    // Streams and durable consumers of their own, whatever ran on this nats-server before.
    PETRI_BUS_NAMESPACE: `e2e_${label}_${process.pid}_${Date.now()}`.toLowerCase().slice(0, 40),
    ...(natsCluster && {
      PETRI_NATS_NODES: "3",
      PETRI_STREAM_REPLICAS: "3",
      PETRI_NATS_CLIENT_PORT: String(portBase + 30),
      PETRI_NATS_ROUTE_PORT: String(portBase + 40),
      PETRI_NATS_MONITOR_PORT: String(portBase + 50),
    }),
    ...options.env,
  };
  try {
    await run("bash", ["deploy/local/start.sh"], { cwd: root, env, timeout: 300_000 });
  } catch (error) {
    // Whatever did start (the NATS nodes, some services) must not outlive the test.
    await run("bash", ["deploy/local/stop.sh"], { cwd: root, env, timeout: 60_000 }).catch(() => undefined);
    throw error;
  }
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${database}`;
  return {
    baseUrls: Array.from({ length: gateways }, (_, i) => `http://127.0.0.1:${gatewayPort + i}`),
    /** Each process's output: <service>.log, experiments-1.log (the second replica), gateway-<i>.log. */
    logDir: path.join(state, "logs"),
    /** Service i (1 identity … 7 notifications) listens on portBase + i. */
    portBase,
    /** Every process's /metrics: the gateways' metrics ports, then each service replica's own port. */
    metricsUrls: [
      ...Array.from({ length: gateways }, (_, i) => `http://127.0.0.1:${portBase + 60 + i}/metrics`),
      ...[1, 2, 3, 4, 5, 6, 7, 11].map((offset) => `http://127.0.0.1:${portBase + offset}/metrics`),
    ],
    /** deploy/local's directory: pids, logs/<label>.log, nats/<n>/. */
    state,
    /** The NATS cluster's monitoring URLs, node 1..3 (none on the shared nats-server). */
    natsMonitorUrls: natsCluster ? [0, 1, 2].map((n) => `http://127.0.0.1:${portBase + 50 + n}`) : [],
    databaseUrl: databaseUrl.toString(),
    /**
     * Deploys a fresh build of one service, one replica at a time (deploy/local/roll.sh);
     * resolves with the script's output once every replica is back and ready.
     */
    async roll(service: string): Promise<string> {
      const { stdout } = await run("bash", ["deploy/local/roll.sh", service], {
        cwd: root,
        env,
        timeout: 300_000,
      });
      return stdout;
    },
    async stop(): Promise<void> {
      await run("bash", ["deploy/local/stop.sh"], { cwd: root, env, timeout: 60_000 });
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`drop database if exists "${database}" with (force)`);
      await admin.end();
      rmSync(state, { recursive: true, force: true });
    },
  };
}
