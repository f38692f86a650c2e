import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

export const repoRoot = path.resolve(import.meta.dirname, "../../..");

/**
 * A TypeScript entry point in a process of its own, so that its CPU time is its alone (the
 * load generator runs in the bench's process). Output goes to the bench's stderr.
 */
export function spawnTs(entry: string, env: Record<string, string>): ChildProcess {
  return spawnProgram(process.execPath, ["--conditions=@petri/source", "--import", "tsx", entry], env);
}

/** `program` with `args`, from the repository's root, its output on stderr only. */
export function spawnProgram(program: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(program, args, {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/** Polls `url` until it answers `status` (bounded: `timeoutMs`), failing early if `child` exits. */
export async function waitUntilServing(
  url: string,
  timeoutMs: number,
  child?: ChildProcess,
  status = 200,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${url}: the server exited (${child.exitCode})`);
    try {
      if ((await fetch(url)).status === status) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer ${status} within ${timeoutMs} ms`);
}

/** SIGTERM, then SIGKILL if the process has not exited within `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 30_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}
