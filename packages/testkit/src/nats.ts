import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants, mkdtempSync, rmSync } from "node:fs";
import { createConnection } from "node:net";
import { freePort } from "@petri/service-kit";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";

/** A nats-server with JetStream started for one test file, on 127.0.0.1 and a free port. */
export interface NatsServerHandle {
  /** "nats://127.0.0.1:<port>" */
  url: string;
  port: number;
  /** JetStream store directory (kept across kill()/restart()). */
  storeDir: string;
  /** SIGTERM and wait for the exit (SIGKILL after 5 s); deletes the store directory if it was a temporary one. */
  stop(): Promise<void>;
  /** SIGKILL and wait for the exit: a crash, no shutdown work. */
  kill(): Promise<void>;
  /** Starts the server again on the same port with the same store directory. */
  restart(): Promise<void>;
  /** The server's recent output, for failure messages. */
  output(): string;
}

const CANDIDATES = ["/usr/sbin/nats-server", "/usr/bin/nats-server", "/usr/local/bin/nats-server"];

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Path of the nats-server binary: NATS_SERVER_BIN, the usual places, then PATH. */
export function natsServerBinary(): string | undefined {
  const fromEnv = process.env.NATS_SERVER_BIN;
  if (fromEnv && isExecutable(fromEnv)) return fromEnv;
  for (const c of CANDIDATES) if (isExecutable(c)) return c;
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, "nats-server");
    if (isExecutable(p)) return p;
  }
  return undefined;
}

export function natsServerAvailable(): boolean {
  return natsServerBinary() !== undefined;
}

/** Resolves true once a client connection on the port receives the server's INFO line. */
function probe(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    let settled = false;
    const finish = (ok: boolean) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => finish(false));
    socket.on("data", (chunk) => finish(chunk.toString("utf8").startsWith("INFO ")));
    socket.on("error", () => finish(false));
    socket.on("close", () => finish(false));
  });
}

const created = new Set<string>();
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const child of running) child.kill("SIGKILL");
    for (const dir of created) rmSync(dir, { recursive: true, force: true });
  });
}

/** One nats-server child process, restartable on the same store (and port, once it has one). */
class NatsServerProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  /** The last 200 lines it printed. */
  readonly lines: string[] = [];

  constructor(
    private readonly bin: string,
    readonly storeDir: string,
    public port: number,
    private readonly startTimeoutMs: number,
  ) {}

  /**
   * Starts it and waits until it accepts connections. A start that exits at once (most likely
   * its port was taken between freePort() and spawn) is tried again, on a new port if allowed.
   */
  async launch(allowNewPort: boolean): Promise<void> {
    const deadline = Date.now() + this.startTimeoutMs;
    for (;;) {
      const started = this.spawnOnce();
      while (!started.hasExited() && Date.now() < deadline) {
        if (await probe(this.port)) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      if (!started.hasExited()) {
        started.proc.kill("SIGKILL");
        await this.exited;
        throw new Error(`nats-server did not accept connections on port ${this.port}:\n${this.tail()}`);
      }
      if (Date.now() >= deadline) throw new Error(`nats-server exited during startup:\n${this.tail()}`);
      if (allowNewPort) this.port = await freePort();
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  private spawnOnce(): { proc: ChildProcess; hasExited: () => boolean } {
    const proc = spawn(this.bin, ["-js", "-sd", this.storeDir, "-a", "127.0.0.1", "-p", String(this.port)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const record = (chunk: Buffer) => {
      this.lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
      if (this.lines.length > 200) this.lines.splice(0, this.lines.length - 200);
    };
    proc.stdout?.on("data", record);
    proc.stderr?.on("data", record);
    let hasExited = false;
    this.exited = new Promise<void>((resolve) => {
      proc.once("exit", () => {
        hasExited = true;
        running.delete(proc);
        resolve();
      });
    });
    running.add(proc);
    this.child = proc;
    return { proc, hasExited: () => hasExited };
  }

  /** Sends the signal and waits for the exit (SIGTERM escalates to SIGKILL after 5 s). */
  async signalAndWait(sig: NodeJS.Signals): Promise<void> {
    const proc = this.child;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const done = this.exited;
    proc.kill(sig);
    if (sig !== "SIGKILL") {
      const timer = setTimeout(() => proc.kill("SIGKILL"), 5_000);
      await done;
      clearTimeout(timer);
    } else {
      await done;
    }
  }

  private tail(): string {
    return this.lines.slice(-20).join("\n");
  }
}

export async function startNatsServer(
  options: { storeDir?: string; startTimeoutMs?: number } = {},
): Promise<NatsServerHandle> {
  const bin = natsServerBinary();
  if (!bin)
    throw new Error("nats-server not found (install the Debian package nats-server or set NATS_SERVER_BIN)");
  installExitHook();
  const storeDir = options.storeDir ?? mkdtempSync(join(tmpdir(), "petri-nats-"));
  if (!options.storeDir) created.add(storeDir);
  const server = new NatsServerProcess(bin, storeDir, await freePort(), options.startTimeoutMs ?? 15_000);
  await server.launch(true);
  return {
    get url() {
      return `nats://127.0.0.1:${server.port}`;
    },
    get port() {
      return server.port;
    },
    storeDir,
    stop: async () => {
      await server.signalAndWait("SIGTERM");
      if (created.delete(storeDir)) rmSync(storeDir, { recursive: true, force: true });
    },
    kill: () => server.signalAndWait("SIGKILL"),
    restart: async () => {
      await server.signalAndWait("SIGTERM");
      await server.launch(false);
    },
    output: () => server.lines.join("\n"),
  };
}
