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

/**
 * No traffic for `seconds`: what the target does on its own (timers, polls, background loops).
 * The window starts after `settleSeconds` of quiet, so that work left over from the last round
 * (outbox relays, deliveries) is not counted as idle.
 */
export async function measureIdle(
  target: Target,
  seconds: number,
  settleSeconds: number,
): Promise<IdleResult> {
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
