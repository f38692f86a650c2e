import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePortBase } from "./ports.js";

const run = promisify(execFile);
const script = path.resolve(import.meta.dirname, "../../../deploy/local/nats-cluster.sh");

/** A three-node JetStream cluster on 127.0.0.1, started by deploy/local/nats-cluster.sh. */
export interface NatsClusterHandle {
  /** The three client URLs, comma-separated (what a service gets as NATS_URL). */
  servers: string;
  /** Monitoring URLs of node 1..3 (/jsz, /healthz). */
  monitorUrls: string[];
  /**
   * Freezes node 1..3 (SIGSTOP): it holds its connections and answers nothing, as a node
   * stalled by its machine does. With two frozen, JetStream has no quorum.
   */
  pause(node: number): void;
  /** Thaws a node `pause` froze (SIGCONT). */
  resume(node: number): void;
  stop(): Promise<void>;
}

/** Same script as deploy/local, in a directory of its own and on free ports. */
export async function startNatsCluster(): Promise<NatsClusterHandle> {
  const dir = mkdtempSync(path.join(tmpdir(), "petri-nats-cluster-"));
  const base = await freePortBase([0, 1, 2, 10, 11, 12, 20, 21, 22]);
  const env = {
    ...process.env,
    PETRI_LOCAL_DIR: dir,
    PETRI_NATS_CLIENT_PORT: String(base),
    PETRI_NATS_ROUTE_PORT: String(base + 10),
    PETRI_NATS_MONITOR_PORT: String(base + 20),
  };
  const signal = (node: number, name: NodeJS.Signals) => {
    const line = readFileSync(path.join(dir, "nats", "pids"), "utf8")
      .split("\n")
      .find((l) => l.startsWith(`nats-${node} `));
    if (!line) throw new Error(`no nats node ${node} in this cluster`);
    process.kill(Number(line.split(" ")[1]), name);
  };
  const stop = async () => {
    // A frozen node would not act on the script's SIGTERM.
    for (const node of [1, 2, 3]) {
      try {
        signal(node, "SIGCONT");
      } catch {
        // not started or already gone
      }
    }
    await run("bash", [script, "stop"], { env, timeout: 60_000 });
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const { stdout } = await run("bash", [script, "start"], { env, timeout: 60_000 });
    return {
      servers: stdout.trim(),
      monitorUrls: [0, 1, 2].map((n) => `http://127.0.0.1:${base + 20 + n}`),
      pause: (node) => signal(node, "SIGSTOP"),
      resume: (node) => signal(node, "SIGCONT"),
      stop,
    };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
