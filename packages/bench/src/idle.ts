import { cpuDelta, rssBytes, sample } from "./cpu.js";
import type { Target } from "./targets.js";

export interface IdleResult {
  seconds: number;
  /** CPU cores used on average over the window (CPU time / wall time), per label and in total. */
  coresByProcess: Map<string, number>;
  cores: number;
  /** Where the target counts them. */
  statementsPerSecond: number | undefined;
  /** Resident memory at the end of the window, per label (summed over a label's processes). */
  rssByProcess: Map<string, number>;
}

/** Below this many cores over a half-second sample, a target is taken to have caught up. */
const QUIET_CORES = 0.05;
const QUIET_SAMPLE_MS = 500;

/**
 * Waits until the target has worked off what the last load left behind (events still in its
 * bus, deliveries, relays): its processes use under QUIET_CORES over a half-second sample, or
 * `maxSeconds` pass. Returns the seconds waited. Without it the webhook row after a round of
 * POSTs measured the backlog of the POSTs' events (standalone's p50 10 s), not a claim.
 */
export async function waitForQuiet(target: Target, maxSeconds: number): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < maxSeconds * 1000) {
    const processes = await target.processes();
    const before = sample(processes);
    const from = performance.now();
    await new Promise((resolve) => setTimeout(resolve, QUIET_SAMPLE_MS));
    const ms = [...cpuDelta(processes, before, sample(processes)).values()].reduce((a, b) => a + b, 0);
    if (ms / (performance.now() - from) < QUIET_CORES) break;
  }
  return (performance.now() - started) / 1000;
}

/**
 * No traffic for `seconds`: what the target does on its own (timers, polls, background loops).
 * The window starts once the target is quiet (waitForQuiet) and `settleSeconds` more have
 * passed, so that work left over from the last round (outbox relays, deliveries) is not
 * counted as idle.
 */
export async function measureIdle(
  target: Target,
  seconds: number,
  settleSeconds: number,
): Promise<IdleResult> {
  await waitForQuiet(target, 120);
  await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000));
  const processesBefore = await target.processes();
  const before = sample(processesBefore);
  const statementsBefore = await target.sqlStatements?.();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const elapsedMs = performance.now() - started;
  const processes = new Map([...processesBefore, ...(await target.processes())]);
  const cpu = cpuDelta(processes, before, sample(processes));
  const statementsAfter = await target.sqlStatements?.();
  const coresByProcess = new Map([...cpu].map(([label, ms]) => [label, ms / elapsedMs]));
  const rssByProcess = new Map<string, number>();
  for (const [pid, label] of processes) {
    const rss = rssBytes(pid);
    if (rss !== undefined) rssByProcess.set(label, (rssByProcess.get(label) ?? 0) + rss);
  }
  return {
    seconds: elapsedMs / 1000,
    coresByProcess,
    cores: [...coresByProcess.values()].reduce((sum, cores) => sum + cores, 0),
    statementsPerSecond:
      statementsBefore === undefined || statementsAfter === undefined
        ? undefined
        : (statementsAfter - statementsBefore) / (elapsedMs / 1000),
    rssByProcess,
  };
}
