import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { type Logger, freePort } from "@petri/service-kit";
import pg from "pg";
import { type ClusterPaths, SUPERUSER, prepareEmbeddedCluster } from "./embedded-cluster.js";

const run = promisify(execFile);
/** Connections the server accepts: the standalone pool plus room for an operator's psql. */
export const EMBEDDED_MAX_CONNECTIONS = 40;

export interface EmbeddedPostgresOptions extends ClusterPaths {
  logger: Logger;
}

export interface EmbeddedPostgres {
  /** A connection URL for the `postgres` database (127.0.0.1, password). Holds the password: never log it. */
  url: string;
  /** The wrapper process that owns the server (the postmaster and its backends are its descendants). */
  pid: number;
  /** Fast shutdown (open transactions roll back); resolves once every server process has exited. */
  stop(): Promise<void>;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Is `pid` a PostgreSQL process (and not another one that took over the pid of a dead server)? */
async function isPostgres(pid: number): Promise<boolean> {
  const command = existsSync("/proc")
    ? await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "")
    : await run("ps", ["-o", "command=", "-p", String(pid)]).then(
        ({ stdout }) => stdout,
        () => "",
      );
  return command.includes("postgres");
}

/**
 * A server left running on this cluster by a Petri process that was killed (SIGKILL, a crash
 * of the machine's OOM killer) is stopped before the new one starts; a stale postmaster.pid
 * whose process is gone or is not PostgreSQL is removed.
 */
async function recoverLeftover(clusterDir: string, logger: Logger): Promise<void> {
  const lockFile = path.join(clusterDir, "postmaster.pid");
  let pid: number;
  try {
    pid = Number((await readFile(lockFile, "utf8")).split("\n")[0]);
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid) || !(await isPostgres(pid))) {
    await rm(lockFile, { force: true });
    return;
  }
  logger.warn({ pid }, "stopping an embedded database server left running by an earlier process");
  process.kill(pid, "SIGINT");
  for (let waited = 0; alive(pid); waited += 100) {
    if (waited > 60_000) throw new Error(`the leftover database server ${pid} did not stop within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The server runs under a small shell that holds a pipe from this process: when the pipe
 * closes (a stop, or this process dying, even by SIGKILL) the shell asks the server for a fast
 * shutdown and waits for it. It runs in a session of its own, so a terminal's Ctrl-C reaches
 * only Node, which stops the services before the database.
 */
const SUPERVISOR =
  'postgres=$1; shift; "$postgres" "$@" </dev/null & pid=$!; cat >/dev/null; kill -INT $pid 2>/dev/null; wait $pid';

/** Waits until the server accepts a connection, failing early when it exits. */
async function waitUntilAccepting(
  url: string,
  child: ChildProcess,
  recentLines: () => string,
): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the embedded database server exited during startup:\n${recentLines()}`);
    }
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
    }
    if (Date.now() > deadline)
      throw new Error(
        `the embedded database server did not accept connections within 60 s:\n${recentLines()}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A pool's end() drops its clients without waiting for their sockets to close; a fast shutdown
 * arriving first would end those sessions with an error. So the stop waits (briefly, bounded)
 * until no other session is left; one that stays (an operator's psql) is ended by the shutdown.
 */
async function untilClientsLeave(url: string): Promise<void> {
  const probe = new pg.Client({ connectionString: url });
  probe.on("error", () => undefined);
  try {
    await probe.connect();
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline) {
      const { rows } = await probe.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()",
      );
      if (rows[0]?.n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } catch {
    // The server is already going: nothing to wait for.
  } finally {
    await probe.end().catch(() => undefined);
  }
}

/**
 * Starts a PostgreSQL server of its own on `clusterDir` (initialising it on first use), on a
 * free port of 127.0.0.1 only, without a Unix socket, with a password kept in `passwordFile`.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const clusterDir = path.resolve(options.clusterDir);
  const { logger } = options;
  // Begun earlier by the entry point (npm start) on a fresh data directory, or now.
  const { bin, user, password, initialised, notes } = await prepareEmbeddedCluster({
    clusterDir,
    passwordFile: options.passwordFile,
  });
  notes.tellTo(logger);
  if (initialised) {
    logger.info({ dir: clusterDir }, "initialised the embedded database");
  } else {
    // The server insists on a private cluster directory.
    await chmod(clusterDir, 0o700);
    await recoverLeftover(clusterDir, logger);
  }
  const port = await freePort("127.0.0.1");
  const child = spawn(
    "/bin/sh",
    [
      "-c",
      SUPERVISOR,
      "petri-embedded-postgres",
      bin.postgres,
      "-D",
      clusterDir,
      "-p",
      String(port),
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      "-c",
      `max_connections=${EMBEDDED_MAX_CONNECTIONS}`,
    ],
    { ...user, detached: true, stdio: ["pipe", "ignore", "pipe"], env: { ...process.env, LC_ALL: "C" } },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // The server's log: kept at debug level, its failures as warnings; the last lines explain a failed start.
  const recent: string[] = [];
  createInterface({ input: child.stderr! }).on("line", (line) => {
    recent.push(line);
    if (recent.length > 20) recent.shift();
    // Refusals while starting or stopping are expected (startup polls until the server accepts).
    const failure =
      /\b(FATAL|PANIC):/.test(line) && !/database system is (starting up|shutting down)/.test(line);
    if (failure) logger.warn({ postgres: line }, "embedded database");
    else logger.debug({ postgres: line }, "embedded database");
  });
  const url = `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) await untilClientsLeave(url);
    child.stdin?.end();
    await exited;
  };
  try {
    await waitUntilAccepting(url, child, () => recent.join("\n"));
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, pid: child.pid!, stop };
}
