/**
 * kill -9 of one process that deploy/local started, and its restart as it was started: the
 * same command line, environment and working directory, read from /proc before the kill, its
 * output appended to `logFile`. The pids file (`<label> <pid>` lines, read by stop.sh) is
 * rewritten with the new pid, so deploy/local/stop.sh stops the new process.
 */
import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";

interface Launch {
  argv: string[];
  env: Record<string, string>;
  cwd: string;
}

const POLL_MS = 100;

function nulSeparated(file: string): string[] {
  return readFileSync(file, "utf8").split("\0").filter(Boolean);
}

function readLaunch(pid: number): Launch {
  const env: Record<string, string> = {};
  for (const entry of nulSeparated(`/proc/${pid}/environ`)) {
    const at = entry.indexOf("=");
    if (at > 0) env[entry.slice(0, at)] = entry.slice(at + 1);
  }
  return { argv: nulSeparated(`/proc/${pid}/cmdline`), env, cwd: readlinkSync(`/proc/${pid}/cwd`) };
}

/** Gone, or a zombie nobody has reaped yet: either way it serves nothing any more. */
function dead(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

export function pidOf(pidsFile: string, label: string): number {
  const line = readFileSync(pidsFile, "utf8")
    .split("\n")
    .find((l) => l.split(" ")[0] === label);
  if (!line) throw new Error(`${label} is not in ${pidsFile}`);
  return Number(line.split(" ")[1]);
}

function replacePid(pidsFile: string, label: string, pid: number): void {
  const lines = readFileSync(pidsFile, "utf8")
    .split("\n")
    .map((l) => (l.split(" ")[0] === label ? `${label} ${pid}` : l));
  writeFileSync(pidsFile, lines.join("\n"));
}

/** Polls `probe` until true; false when `timeoutMs` ran out (the caller decides what that means). */
export async function waitFor(probe: () => Promise<boolean> | boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return true;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return false;
}

/** SIGKILL to `label`'s process; resolves once it is dead. Returns how to start it again. */
export async function killHard(pidsFile: string, label: string): Promise<Launch & { pid: number }> {
  const pid = pidOf(pidsFile, label);
  const launch = readLaunch(pid);
  process.kill(pid, "SIGKILL");
  if (!(await waitFor(() => dead(pid), 30_000))) throw new Error(`${label} (${pid}) survived SIGKILL`);
  return { ...launch, pid };
}

/** Starts `launch` again, detached like deploy/local's processes, and records its pid. */
export function restart(pidsFile: string, label: string, launch: Launch, logFile: string): number {
  const log = openSync(logFile, "a");
  const [command, ...args] = launch.argv;
  const child = spawn(command!, args, {
    cwd: launch.cwd,
    env: launch.env,
    detached: true,
    stdio: ["ignore", log, log],
  });
  closeSync(log);
  child.unref();
  if (child.pid === undefined) throw new Error(`${label} did not start again`);
  replacePid(pidsFile, label, child.pid);
  return child.pid;
}
