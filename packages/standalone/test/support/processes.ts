import { readFileSync, readdirSync } from "node:fs";

/** The processes whose command line mentions `text` (e.g. a cluster directory given to postgres -D). */
export function processesUsing(text: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let command: string;
    try {
      command = readFileSync(`/proc/${entry}/cmdline`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    if (command.includes(text)) pids.push(Number(entry));
  }
  return pids;
}

/** Polls `condition` until it holds (bounded by `timeoutMs`, generous: the machine may be loaded). */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
