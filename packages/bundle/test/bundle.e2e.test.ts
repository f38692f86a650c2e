// The production bundle, as the image runs it: bundled from source, only its production
// dependencies installed into a scratch folder (outside the repo, so nothing resolves from
// the workspace's node_modules), started against real PostgreSQL and nats-server.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { generateInternalKeyPair } from "@petri/service-kit";
import {
  type NatsServerHandle,
  type TestDatabase,
  createTestDatabase,
  freePort,
  testDatabaseAdminUrl,
  natsServerAvailable,
  postgresAvailable,
  requireInfra,
  startNatsServer,
} from "@petri/testkit";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleService } from "../src/bundle-service.js";

const run = promisify(execFile);
const infra =
  requireInfra("PostgreSQL", await postgresAvailable()) && requireInfra("nats-server", natsServerAvailable());

/** Every package installed under `modules` (top level, scoped names expanded). */
function installedPackages(modules: string): string[] {
  const names: string[] = [];
  for (const entry of readdirSync(modules)) {
    if (entry.startsWith(".")) continue;
    if (entry.startsWith("@")) {
      for (const inner of readdirSync(path.join(modules, entry))) names.push(`${entry}/${inner}`);
    } else names.push(entry);
  }
  return names.sort();
}

/** `roots` and everything they depend on, as installed under `modules`. */
function dependencyClosure(modules: string, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const manifest = path.join(modules, name, "package.json");
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, "utf8")) as Record<
      string,
      Record<string, string> | undefined
    >;
    for (const field of ["dependencies", "optionalDependencies", "peerDependencies"]) {
      queue.push(...Object.keys(pkg[field] ?? {}));
    }
  }
  return seen;
}

async function waitFor<T>(what: string, attempts: number, probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < attempts; i += 1) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`gave up waiting for ${what}`);
}

async function readyz(port: number): Promise<{ status: number; body: string }> {
  const response = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(5_000) });
  return { status: response.status, body: await response.text() };
}

describe.skipIf(!infra)("identity's production bundle", () => {
  const scratch = mkdtempSync(path.join(tmpdir(), "petri-bundle-"));
  const role = `petri_bundle_${randomBytes(4).toString("hex")}`;
  let dir: string;
  let dependencies: Record<string, string>;
  let database: TestDatabase;
  let nats: NatsServerHandle;
  let env: NodeJS.ProcessEnv;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    ({ dir, dependencies } = await bundleService("identity", scratch));
    // Under CI=true a failing install (registry unreachable) fails the suite like any error.
    await run(
      "npm",
      [
        "install",
        "--omit=dev",
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
        "--no-package-lock",
        "--prefer-offline",
      ],
      { cwd: dir, timeout: 600_000, env: { ...process.env, npm_config_loglevel: "error" } },
    );

    // A database, role and schema the way deploy/local/start.sh makes them.
    database = await createTestDatabase("petri_bundle");
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await admin.query("revoke create on schema public from public");
    await admin.query(`create role ${role} login`);
    await admin.query(`create schema identity authorization ${role}`);
    await admin.query(`alter role ${role} set search_path = identity`);
    await admin.end();
    const url = new URL(database.url);
    url.username = role;

    nats = await startNatsServer();
    const keys = await generateInternalKeyPair();
    env = {
      PATH: process.env.PATH,
      HOST: "127.0.0.1",
      DATABASE_URL: url.toString(),
      NATS_URL: nats.url,
      PETRI_INTERNAL_JWT_PUBLIC_KEY: keys.publicKeyPem,
      PETRI_IDENTITY_KEK: randomBytes(32).toString("base64"),
      PETRI_API_KEY_PEPPER: randomBytes(32).toString("base64"),
      LOG_LEVEL: "warn",
    };
  }, 900_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
    await nats?.stop();
    await database?.drop();
    if (database) {
      const admin = new pg.Client({ connectionString: testDatabaseAdminUrl() });
      await admin.connect();
      await admin.query(`drop role if exists ${role}`);
      await admin.end();
    }
    rmSync(scratch, { recursive: true, force: true });
  }, 60_000);

  it("lists its third-party packages at the repo's versions, and the install holds only those", () => {
    expect(dependencies.argon2).toBe(
      JSON.parse(
        readFileSync(path.join(import.meta.dirname, "../../../node_modules/argon2/package.json"), "utf8"),
      ).version,
    );
    expect(Object.keys(dependencies)).toEqual(
      expect.arrayContaining(["pg", "kysely", "@connectrpc/connect-node"]),
    );
    expect(Object.keys(dependencies).some((name) => name.startsWith("@petri/"))).toBe(false);

    const modules = path.join(dir, "node_modules");
    const installed = installedPackages(modules);
    const allowed = dependencyClosure(modules, Object.keys(dependencies));
    expect(installed.filter((name) => !allowed.has(name))).toEqual([]);
    for (const devOnly of ["vitest", "typescript", "tsx", "esbuild", "nx", "prettier", "eslint"]) {
      expect(installed).not.toContain(devOnly);
    }
    expect(installed.filter((name) => name.startsWith("@petri/"))).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual(["main.js", "main.js.map", "node_modules", "package.json"]);
  });

  it("waits unready for the migrate step, serves once it ran, and exits 0 on SIGTERM", async () => {
    const port = await freePort();
    const output: string[] = [];
    const server = spawn(process.execPath, ["main.js"], {
      cwd: dir,
      env: { ...env, PORT: String(port), PETRI_MIGRATE_ON_START: "false" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(server);
    server.stdout.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    server.stderr.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    const exited = new Promise<number | null>((resolve) => server.on("exit", (code) => resolve(code)));

    // Listening, but not ready: nothing migrated the schema, and this replica must not.
    const before = await waitFor("the server to listen", 120, () => readyz(port));
    expect(before.status).toBe(503);
    expect(before.body).toContain("pending");

    const migrate = await run(process.execPath, ["main.js", "migrate"], { cwd: dir, env, timeout: 120_000 });
    expect(migrate.stderr).toBe("");
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    const { rows } = await admin.query<{ n: string }>("select count(*) as n from identity.kysely_migration");
    await admin.end();
    expect(Number(rows[0]!.n)).toBeGreaterThan(0);

    const after = await waitFor("readiness", 120, async () => {
      const answer = await readyz(port);
      return answer.status === 200 ? answer : undefined;
    });
    expect(after.status).toBe(200);

    // A real call through the bundle's Connect server: the standard health service.
    const health = await fetch(`http://127.0.0.1:${port}/grpc.health.v1.Health/Check`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "SERVING" });

    server.kill("SIGTERM");
    const code = await Promise.race([
      exited,
      new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), 60_000)),
    ]);
    expect(code, output.join("")).toBe(0);
  }, 300_000);

  it("migrate exits non-zero when the database cannot be reached", async () => {
    const port = await freePort();
    const result = await run(process.execPath, ["main.js", "migrate"], {
      cwd: dir,
      env: { ...env, DATABASE_URL: `postgres://${role}@127.0.0.1:${port}/nowhere` },
      timeout: 120_000,
    }).then(
      () => ({ code: 0 }),
      (error: { code?: number }) => ({ code: error.code }),
    );
    expect(result.code).toBe(1);
  }, 180_000);
});
