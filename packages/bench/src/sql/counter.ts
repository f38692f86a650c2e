import type { ChildProcess } from "node:child_process";
import { freePort } from "@petri/testkit";
import { spawnTs, stopChild, waitUntilServing } from "../processes.js";

/** The statement-counting proxy (servers/sql-proxy.ts), running in a process of its own. */
export interface SqlCounter {
  /** host:port for the Petri host's database URL. */
  address: string;
  /** Statements sent through the proxy since it started. */
  statements(): Promise<number>;
  stop(): Promise<void>;
}

export async function startSqlCounter(upstream: string): Promise<SqlCounter> {
  const port = await freePort();
  const controlPort = await freePort();
  const child: ChildProcess = spawnTs("packages/bench/src/servers/sql-proxy.ts", {
    PORT: String(port),
    CONTROL_PORT: String(controlPort),
    UPSTREAM: upstream,
  });
  const control = `http://127.0.0.1:${controlPort}/statements`;
  await waitUntilServing(control, 60_000, child);
  return {
    address: `127.0.0.1:${port}`,
    async statements() {
      const { statements } = (await (await fetch(control)).json()) as { statements: number };
      return statements;
    },
    stop: () => stopChild(child),
  };
}
