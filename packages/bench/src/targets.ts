import { type ChildProcess, execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createTestDatabase, testDatabaseAdminUrl } from "@petri/testkit";
import pg from "pg";
import { type ProcessSet, processTree, startedAtMs, uptimeMs } from "./cpu.js";
import { freePort, freePortBase } from "@petri/testkit";
import { repoRoot, spawnProgram, spawnTs, stopChild, waitUntilServing } from "./processes.js";
import { type SqlCounter, startSqlCounter } from "./sql/counter.js";

const run = promisify(execFile);

/** A server under load: where it listens and which processes' CPU time is its cost. */
export interface Target {
  name: string;
  baseUrl: string;
  /** Read before and after every round: PostgreSQL backends come and go. */
  processes(): Promise<ProcessSet>;
  /** SQL statements sent to the database so far; absent where they cannot be counted. */
  sqlStatements?: () => Promise<number>;
  /** Why statements are not counted, where they are not. */
  sqlNotCounted?: string;
  /** From the start of its first server process to its first /health 200 (Petri only). */
  coldStartMs?: number;
  stop(): Promise<void>;
}

/** Settings every Petri host of the bench gets (the webhook receiver's allowlist and CA). */
export type HostSettings = Record<string, string>;

/** Polls /health (outside every rate limit) every 100 ms until it answers 200; returns when (uptimeMs). */
async function firstHealthy(
  baseUrl: string,
  timeoutMs: number,
  failed: () => string | undefined,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const failure = failed();
    if (failure) throw new Error(failure);
    try {
      const response = await fetch(`${baseUrl}/health`);
      await response.arrayBuffer();
      if (response.status === 200) return uptimeMs();
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${baseUrl}/health did not answer 200 within ${timeoutMs} ms`);
}

/** The bench's staff account (PETRI_STAFF_EMAIL / PETRI_STAFF_PASSWORD of the Petri hosts). */
export const STAFF = { email: "staff@bench.petri.test", password: "staff password for the bench" };

/**
 * The PostgreSQL backends connected to `database`: the database work a target causes is part
 * of its cost. The probe's own backend is left out.
 */
async function backends(admin: pg.Client, database: string): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>(
    "select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
    [database],
  );
  return rows.map((row) => row.pid);
}

async function adminClient(): Promise<pg.Client> {
  const admin = new pg.Client({
    connectionString: testDatabaseAdminUrl(),
    application_name: "petri-bench-probe",
  });
  await admin.connect();
  return admin;
}

/** B1: bare Hono hello. */
export async function startHello(): Promise<Target & { path: string }> {
  const port = await freePort();
  const child = spawnTs("packages/bench/src/servers/hello.ts", { PORT: String(port) });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilServing(baseUrl, 60_000, child);
  return {
    name: "B1",
    baseUrl,
    path: "/",
    processes: async () => new Map([[child.pid!, "server"]]),
    stop: () => stopChild(child),
  };
}

/**
 * A JSON document of about 3.5 KB shaped like a stored experiment request (many short fields and
 * a few longer texts), so that B2 reads, parses and serialises what Petri's GET by id does.
 */
function experimentLikeRow(): Record<string, unknown> {
  const sentence = "Ampicillin inhibits growth of E. coli ATCC 25922 at 8 ug/mL or lower. ";
  const body: Record<string, unknown> = {
    experiment_type: "MIC_MBC_ASSAY",
    title: "MIC of ampicillin against E. coli ATCC 25922",
    hypothesis: { statement: sentence.repeat(3), null_hypothesis: sentence.repeat(2), rationale: sentence },
    status: "open",
    privacy: "open",
  };
  for (let i = 0; i < 24; i += 1) body[`field_${i}`] = { value: i * 1.5, unit: "ug/mL", note: sentence };
  return body;
}

/** B2: Hono + one pg primary-key select of a ~3.5 KB row, in a fresh database of its own. */
export async function startSelect(): Promise<Target & { path: string; rowBytes: number }> {
  const database = await createTestDatabase("petri_bench_b2");
  const setup = new pg.Client({ connectionString: database.url });
  await setup.connect();
  const row = JSON.stringify(experimentLikeRow());
  await setup.query("create table bench_rows (id text primary key, body jsonb not null)");
  await setup.query("insert into bench_rows values ('exp_bench', $1)", [row]);
  await setup.end();
  const admin = await adminClient();
  const port = await freePort();
  const child = spawnTs("packages/bench/src/servers/select.ts", {
    PORT: String(port),
    DATABASE_URL: database.url,
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilServing(`${baseUrl}/rows/exp_bench`, 60_000, child);
  const name = new URL(database.url).pathname.slice(1);
  return {
    name: "B2",
    baseUrl,
    path: "/rows/exp_bench",
    rowBytes: Buffer.byteLength(row),
    async processes() {
      const set: ProcessSet = new Map([[child.pid!, "server"]]);
      for (const pid of await backends(admin, name)) set.set(pid, "postgres");
      return set;
    },
    async stop() {
      await stopChild(child);
      await admin.end();
      await database.drop();
    },
  };
}

const exitedEarly = (child: ChildProcess) => () =>
  child.exitCode !== null ? `the server exited (${child.exitCode})` : undefined;

/** Petri standalone as `npm start` runs it, on a fresh data directory. */
export async function startStandaloneTarget(settings: HostSettings = {}): Promise<Target> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "petri-bench-"));
  const port = await freePort();
  // npm start's two steps: the bundle is built first (not counted), then run by the same script.
  await run("npm", ["run", "--silent", "bundle", "--", "--standalone"], { cwd: repoRoot });
  const child = spawnProgram("sh", ["scripts/start-standalone.sh"], {
    PETRI_SKIP_BUILD: "1",
    ...settings,
    PORT: String(port),
    HOST: "127.0.0.1",
    PETRI_DATA_DIR: dataDir,
    // No metrics listener: its default port would collide between parallel runs.
    PETRI_METRICS_PORT: "0",
    LOG_LEVEL: "warn",
    PETRI_STAFF_EMAIL: STAFF.email,
    PETRI_STAFF_PASSWORD: STAFF.password,
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const healthy = await firstHealthy(baseUrl, 180_000, exitedEarly(child));
  const coldStartMs = healthy - (startedAtMs(child.pid!) ?? healthy);
  await waitUntilServing(`${baseUrl}/readyz`, 180_000, child);
  return {
    name: "standalone",
    baseUrl,
    // The embedded PostgreSQL server is started under this process: counted with it.
    processes: async () => processTree(child.pid!, "standalone"),
    sqlNotCounted: "n/a (the embedded server's port is its own; no proxy in between)",
    coldStartMs,
    async stop() {
      await stopChild(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Petri cluster mode through deploy/local/start.sh (a process per service, PostgreSQL, NATS), on
 * a database and bus namespace of its own. The services reach PostgreSQL through the bench's statement-counting proxy
 * (PETRI_SERVICES_DATABASE_ADDRESS of start.sh).
 */
export async function startClusterTarget(settings: HostSettings = {}): Promise<Target> {
  const stamp = `${process.pid}_${Date.now()}`;
  const database = `petri_bench_${stamp}`;
  const state = mkdtempSync(path.join(tmpdir(), "petri-bench-cluster-"));
  // Services on base+1..base+7, an experiments replica on base+11, the gateway on base+20 (its metrics on base+60).
  const portBase = await freePortBase([1, 2, 3, 4, 5, 6, 7, 11, 20, 60]);
  const counter: SqlCounter = await startSqlCounter("127.0.0.1:5432");
  const env = {
    ...process.env,
    ...settings,
    PETRI_SERVICES_DATABASE_ADDRESS: counter.address,
    PORT: String(portBase + 20),
    PETRI_PORT_BASE: String(portBase),
    PETRI_DB: database,
    PETRI_LOCAL_DIR: state,
    PETRI_BUS_NAMESPACE: `bench_${stamp}`,
    PETRI_STAFF_EMAIL: STAFF.email,
    PETRI_STAFF_PASSWORD: STAFF.password,
    LOG_LEVEL: "warn",
  };
  const stop = async () => {
    await run("bash", ["deploy/local/stop.sh"], { cwd: repoRoot, env, timeout: 120_000 }).catch(
      () => undefined,
    );
    const admin = await adminClient();
    await admin.query(`drop database if exists "${database}" with (force)`);
    await admin.end();
    await counter.stop();
    rmSync(state, { recursive: true, force: true });
  };
  const baseUrl = `http://127.0.0.1:${portBase + 20}`;
  let healthy: number;
  try {
    // start.sh builds, then starts the processes and waits for /health; the bench watches
    // /health meanwhile, more finely than start.sh's one-second polls.
    let startFailure: string | undefined;
    const started = run("bash", ["deploy/local/start.sh"], { cwd: repoRoot, env, timeout: 600_000 }).catch(
      (error: Error) => {
        startFailure = error.message;
        throw error;
      },
    );
    started.catch(() => undefined);
    healthy = await firstHealthy(baseUrl, 600_000, () => startFailure);
    await started;
  } catch (error) {
    await stop();
    throw error;
  }
  const services: ProcessSet = new Map();
  for (const line of readFileSync(path.join(state, "pids"), "utf8").split("\n")) {
    const [label, pid] = line.trim().split(" ");
    if (label && pid) services.set(Number(pid), label);
  }
  const firstStart = Math.min(...[...services.keys()].map((pid) => startedAtMs(pid) ?? healthy));
  const admin = await adminClient();
  return {
    name: "cluster",
    baseUrl,
    async processes() {
      const set: ProcessSet = new Map(services);
      for (const pid of await backends(admin, database)) set.set(pid, "postgres");
      return set;
    },
    sqlStatements: () => counter.statements(),
    coldStartMs: healthy - firstStart,
    async stop() {
      await admin.end();
      await stop();
    },
  };
}
