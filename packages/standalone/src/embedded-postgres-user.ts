/**
 * PostgreSQL refuses to run as root. When Petri runs as root (a container's default), the
 * embedded server runs as the "postgres" operating-system account, created if missing, and
 * the binaries and the cluster directory are made reachable by it.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, cp, mkdir, mkdtemp, readFile, rename, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The operating-system account PostgreSQL runs as when Petri runs as root (it refuses root). */
const OS_USER = "postgres";

/** The PostgreSQL binaries the server is started from. */
export interface Binaries {
  initdb: string;
  postgres: string;
}

/** Where these steps say what they did (a logger, or notes held until one exists). */
export interface Notes {
  info(fields: Record<string, unknown>, message: string): void;
}

export interface RunAs {
  uid: number;
  gid: number;
}

/**
 * PostgreSQL refuses to run as root. Under root the server runs as the `postgres` account,
 * created (a system account without a home or a login shell) when the machine has none.
 */
export async function runAs(notes: Notes): Promise<RunAs | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const lookup = async (): Promise<RunAs> => {
    const [uid, gid] = await Promise.all([
      run("id", ["-u", OS_USER]).then(({ stdout }) => Number(stdout.trim())),
      run("id", ["-g", OS_USER]).then(({ stdout }) => Number(stdout.trim())),
    ]);
    return { uid, gid };
  };
  try {
    return await lookup();
  } catch {
    await run("useradd", [
      "--system",
      "--user-group",
      "--no-create-home",
      "--home-dir",
      "/nonexistent",
      "--shell",
      "/usr/sbin/nologin",
      OS_USER,
    ]);
    notes.info({ user: OS_USER }, "created the system account the embedded database runs as");
    return lookup();
  }
}

function canEnter(info: { uid: number; gid: number; mode: number }, user: RunAs): boolean {
  if (info.uid === user.uid) return (info.mode & 0o100) !== 0;
  if (info.gid === user.gid) return (info.mode & 0o010) !== 0;
  return (info.mode & 0o001) !== 0;
}

async function reachableBy(file: string, user: RunAs): Promise<boolean> {
  for (let current = path.dirname(file); ; current = path.dirname(current)) {
    if (!canEnter(await stat(current), user)) return false;
    if (current === path.dirname(current)) return true;
  }
}

/**
 * Under root, the project may live where the server's account cannot go (a checkout under
 * /root): then the binaries are copied once to a directory of the temporary area it can reach.
 */
export async function binariesReachableBy(bin: Binaries, user: RunAs, notes: Notes): Promise<Binaries> {
  if (await reachableBy(bin.postgres, user)) return bin;
  const native = path.dirname(path.dirname(bin.postgres));
  const { version } = JSON.parse(await readFile(path.join(native, "..", "package.json"), "utf8")) as {
    version: string;
  };
  const copy = path.join(tmpdir(), `petri-postgres-${version}`);
  // The temporary area is shared: only a copy this account made is trusted.
  const existing = await stat(copy).catch(() => undefined);
  if (existing && existing.uid !== process.getuid?.()) {
    throw new Error(`${copy} exists and is not ours: remove it, or set PETRI_DATABASE_URL`);
  }
  if (!existsSync(path.join(copy, "bin", "postgres"))) {
    const partial = await mkdtemp(`${copy}-partial-`);
    await cp(native, partial, { recursive: true, verbatimSymlinks: true });
    await chmod(partial, 0o755);
    await rename(partial, copy).catch(async () => rm(partial, { recursive: true, force: true }));
    notes.info({ dir: copy }, "copied the PostgreSQL binaries where the server's account can reach them");
  }
  return { initdb: path.join(copy, "bin", "initdb"), postgres: path.join(copy, "bin", "postgres") };
}

/**
 * The server's account must enter every directory above the cluster. The data directory is
 * Petri's own: it is opened for traversal (not listing; its files keep their own modes).
 */
export async function ensureReachable(clusterDir: string, user: RunAs): Promise<void> {
  const dataDir = path.dirname(clusterDir);
  await mkdir(dataDir, { recursive: true });
  for (let current = dataDir; ; current = path.dirname(current)) {
    const info = await stat(current);
    const reachable = canEnter(info, user);
    if (!reachable && current === dataDir && info.uid === process.getuid?.()) {
      await chmod(current, (info.mode & 0o7777) | 0o001);
    } else if (!reachable) {
      throw new Error(
        `the embedded database runs as the "${OS_USER}" account, which cannot enter ${current}: ` +
          "choose a PETRI_DATA_DIR it can reach, or allow it in (chmod o+x)",
      );
    }
    if (current === path.dirname(current)) return;
  }
}
