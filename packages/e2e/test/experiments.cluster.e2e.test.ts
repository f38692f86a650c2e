import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { postgresAvailable, requireInfra } from "@petri/testkit";
import pg from "pg";
import { afterAll, beforeAll, describe, it } from "vitest";
import {
  type ExperimentsTarget,
  bolaScenario,
  draftScenario,
  estimateAndTemplatesScenario,
  idempotencyScenario,
  protocolDesignScenario,
  requesterLifecycleScenario,
  staffReviewScenario,
  validateScenario,
} from "./experiments.scenarios.js";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../../..");
const adminUrl = process.env.PETRI_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const infra =
  requireInfra("PostgreSQL", await postgresAvailable()) &&
  requireInfra("nats-server on 127.0.0.1:4222", await reachable(4222));

function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** A free port whose successor is free too (the second gateway replica listens on port + 1). */
async function freePortPair(): Promise<number> {
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const probe = createServer();
      probe.once("error", reject);
      probe.listen(port, "127.0.0.1", () => {
        const address = probe.address();
        probe.close(() =>
          typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
        );
      });
    });
  for (;;) {
    const port = await listen(0);
    if (
      await listen(port + 1).then(
        () => true,
        () => false,
      )
    )
      return port;
  }
}

const staff = { email: "staff@petri.test", password: "staff password for e2e" };

describe.skipIf(!infra)("experiment requests, cluster mode (a process per service, two gateways)", () => {
  const database = `petri_e2e_experiments_${process.pid}_${Date.now()}`;
  const state = mkdtempSync(path.join(tmpdir(), "petri-cluster-experiments-"));
  let env: NodeJS.ProcessEnv;
  let target: ExperimentsTarget;

  beforeAll(async () => {
    const gatewayPort = await freePortPair();
    const portBase = 20_000 + Math.floor(Math.random() * 20_000);
    env = {
      ...process.env,
      PORT: String(gatewayPort),
      GATEWAY_REPLICAS: "2",
      PETRI_STAFF_EMAIL: staff.email,
      PETRI_STAFF_PASSWORD: staff.password,
      PETRI_PORT_BASE: String(portBase),
      PETRI_DB: database,
      PETRI_LOCAL_DIR: state,
    };
    await run("bash", ["deploy/local/start.sh"], { cwd: root, env, timeout: 300_000 });
    // Every scenario spreads its requests over both gateway replicas.
    target = {
      baseUrls: [`http://127.0.0.1:${gatewayPort}`, `http://127.0.0.1:${gatewayPort + 1}`],
      staff,
    };
  }, 360_000);

  afterAll(async () => {
    if (env) await run("bash", ["deploy/local/stop.sh"], { cwd: root, env, timeout: 60_000 });
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists "${database}" with (force)`);
    await admin.end();
    rmSync(state, { recursive: true, force: true });
  }, 120_000);

  it("validate: valid, invalid with paths, controlled substance and BSL-3 flagged", () =>
    validateScenario(target));
  it("estimate with a partial body; templates list, filters and one record", () =>
    estimateAndTemplatesScenario(target));
  it("create -> get -> list with a cursor -> patch -> cancel with a full refund", () =>
    requesterLifecycleScenario(target));
  it("draft -> submit (incomplete: 422 with paths; complete: open)", () => draftScenario(target));
  it("pending_review -> staff approve, staff reject with a refund", () => staffReviewScenario(target));
  it("protocol design: proposal -> changes -> new proposal -> accept -> open", () =>
    protocolDesignScenario(target));
  it("Idempotency-Key: byte-identical replay, another body 422, ten at once over two gateways make one experiment", () =>
    idempotencyScenario(target));
  it("another account's experiment is 404 for read, patch and delete", () => bolaScenario(target));
});
