import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";

/** Milliseconds per clock tick, the unit of utime, stime and starttime in /proc/<pid>/stat. */
const TICK_MS = 1000 / (Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100);

/**
 * The fields of /proc/<pid>/stat from field 3 (state) on, or undefined once the process is gone.
 * The command name (field 2) may hold spaces and parentheses, so fields are counted from its
 * closing parenthesis: field n is at index n - 3.
 */
function statFields(pid: number): string[] | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/**
 * `root` and every process started under it, labelled by `label` for the root and by command
 * name for the others (an embedded database's "postgres" processes), so that a host's helpers
 * count in its cost whatever they are.
 */
export function processTree(root: number, label: string): ProcessSet {
  const children = new Map<number, { parent: number; name: string }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    // ppid is field 4.
    const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    children.set(Number(entry), { parent, name });
  }
  const tree: ProcessSet = new Map([[root, label]]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, { parent, name }] of children)
      if (!tree.has(pid) && tree.has(parent)) {
        tree.set(pid, name);
        grew = true;
      }
  }
  return tree;
}

/** CPU time (user + system, all threads) a process has used so far, or undefined once it is gone. */
export function cpuMs(pid: number): number | undefined {
  const fields = statFields(pid);
  // utime is field 14, stime field 15.
  return fields && (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** When a process started, in milliseconds since boot (field 22, starttime), as uptimeMs counts. */
export function startedAtMs(pid: number): number | undefined {
  const fields = statFields(pid);
  return fields && Number(fields[19]) * TICK_MS;
}

/** Milliseconds since boot, the clock of startedAtMs (10 ms resolution). */
export function uptimeMs(): number {
  return Number(readFileSync("/proc/uptime", "utf8").split(" ")[0]) * 1000;
}

/**
 * Proportional resident memory of a process in bytes (Pss of /proc/<pid>/smaps_rollup: each
 * shared page split between the processes mapping it), or undefined once it is gone. Summed over
 * a process tree it is that tree's memory; summed VmRSS would count PostgreSQL's shared buffers
 * and every shared library once per process.
 */
export function rssBytes(pid: number): number | undefined {
  try {
    const match = /^Pss:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Process id -> label ("gateway-0", "postgres"); several pids may share a label. */
export type ProcessSet = Map<number, string>;

export type CpuSample = Map<number, number>;

export function sample(processes: ProcessSet): CpuSample {
  const values: CpuSample = new Map();
  for (const pid of processes.keys()) {
    const value = cpuMs(pid);
    if (value !== undefined) values.set(pid, value);
  }
  return values;
}

/**
 * CPU used between two samples, summed per label. A process first seen after the round (a
 * PostgreSQL backend a pool opened meanwhile) used all its CPU time within the round; one gone
 * by the end (a backend closed meanwhile) is left out, its share unknown.
 */
export function cpuDelta(processes: ProcessSet, before: CpuSample, after: CpuSample): Map<string, number> {
  const byLabel = new Map<string, number>();
  for (const [pid, label] of processes) {
    const end = after.get(pid);
    if (end === undefined) continue;
    byLabel.set(label, (byLabel.get(label) ?? 0) + (end - (before.get(pid) ?? 0)));
  }
  return byLabel;
}
