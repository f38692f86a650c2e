import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** Milliseconds per clock tick, the unit of utime and stime in /proc/<pid>/stat. */
const TICK_MS = 1000 / (Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100);

/** CPU time (user + system, all threads) a process has used so far, or undefined once it is gone. */
export function cpuMs(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses, so fields are counted from its
  // closing parenthesis: after it, state is field 3, utime field 14 and stime field 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
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
