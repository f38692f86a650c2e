import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { postgresAvailable, requireInfra } from "@petri/testkit";
import { connect } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Target,
  credentialsLifecycle,
  staffChangesTier,
  errorsHaveOneShape,
  healthReportsEveryService,
  registrationEventReachesNotifications,
  sharedRateLimit,
} from "./scenarios.js";

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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

const staff = { email: "staff@petri.test", password: "staff password for e2e" };

describe.skipIf(!infra)("cluster mode (a process per service, PostgreSQL, NATS JetStream)", () => {
  const database = `petri_e2e_${process.pid}_${Date.now()}`;
  const state = mkdtempSync(path.join(tmpdir(), "petri-cluster-"));
  let env: NodeJS.ProcessEnv;
  let target: Target;
  let portBase: number;
  let reader: pg.Client;

  beforeAll(async () => {
    const gatewayPort = await freePort();
    portBase = 20_000 + Math.floor(Math.random() * 20_000);
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
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    reader = new pg.Client({ connectionString: url.toString() });
    await reader.connect();
    target = {
      baseUrl: `http://127.0.0.1:${gatewayPort}`,
      contactFor: async (accountId) => {
        const result = await reader.query(
          "select email from notifications.account_contacts where account_id = $1",
          [accountId],
        );
        return result.rows[0] as { email: string } | undefined;
      },
    };
  }, 360_000);

  afterAll(async () => {
    await reader?.end();
    if (env) await run("bash", ["deploy/local/stop.sh"], { cwd: root, env, timeout: 60_000 });
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists "${database}" with (force)`);
    await admin.end();
    rmSync(state, { recursive: true, force: true });
  }, 120_000);

  it("GET /health reports every service ready over Connect", () => healthReportsEveryService(target));
  it("an event written through identity's outbox is consumed by notifications", () =>
    registrationEventReachesNotifications(target));
  it("errors have the spec's shape", () => errorsHaveOneShape(target));
  it("register -> token -> me -> API key -> revoke -> 401", () => credentialsLifecycle(target));
  it("the bootstrapped staff account changes an account's tier", () => staffChangesTier(target, staff));
  it("a service port reached directly, without the gateway's internal token, is refused", async () => {
    const identityUrl = `http://127.0.0.1:${portBase + 1}`;
    const response = await fetch(`${identityUrl}/petri.identity.v1.IdentityService/GetAccount`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { code: string }).code).toBe("unauthenticated");
  });
  it("two gateway processes together admit no more than the account's limit", () =>
    sharedRateLimit([
      target.baseUrl,
      target.baseUrl.replace(/:(\d+)$/, (_, port) => `:${Number(port) + 1}`),
    ]));
});
