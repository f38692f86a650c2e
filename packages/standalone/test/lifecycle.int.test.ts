/**
 * `npm start`'s process on the embedded database, run as npm start runs it (the standalone
 * bundle, built first): a clean stop on SIGTERM and SIGINT leaves no database process behind, a
 * SIGKILL of Node takes the database down with it, and the next start on that data directory
 * comes up with the data written before; Node runs with the flags the script gives it.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { freePort } from "@petri/service-kit";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { processesUsing, waitFor } from "./support/processes.js";

const repoRoot = path.resolve(import.meta.dirname, "../../..");

interface Running {
  child: ChildProcess;
  url: string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function startPetri(dataDir: string): Promise<Running> {
  const port = await freePort();
  // npm start's script, on the bundle beforeAll built; sh execs Node, so this child is Node.
  const child = spawn("sh", ["scripts/start-standalone.sh"], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PETRI_SKIP_BUILD: "1",
      PETRI_DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => {
    if (child.exitCode !== null) throw new Error(`standalone exited during startup (${child.exitCode})`);
    return (await fetch(`${url}/health`).catch(() => undefined))?.status === 200;
  }, 180_000);
  return { child, url, exit };
}

const register = (url: string, email: string) =>
  fetch(`${url}/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: "a long enough password", name: "Barbara" }),
  });

describe("npm start on the embedded database", { timeout: 300_000 }, () => {
  let dataDir: string;
  let clusterDir: string;
  let running: Running | undefined;

  beforeAll(() => {
    execFileSync("npm", ["run", "--silent", "bundle", "--", "--standalone"], {
      cwd: repoRoot,
      stdio: ["ignore", "ignore", "inherit"],
    });
    dataDir = mkdtempSync(path.join(tmpdir(), "petri-lifecycle-"));
    clusterDir = path.join(dataDir, "postgres");
  });

  afterAll(async () => {
    if (running && running.child.exitCode === null && running.child.signalCode === null) {
      running.child.kill("SIGTERM");
      await running.exit;
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("stops its database on SIGTERM and SIGINT, leaving no process of that data directory", async () => {
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      running = await startPetri(dataDir);
      expect(processesUsing(clusterDir).length).toBeGreaterThan(0);
      running.child.kill(signal);
      expect(await running.exit).toEqual({ code: 0, signal: null });
      expect(processesUsing(clusterDir)).toEqual([]);
    }
  });

  it("runs Node with the old generation's growth held to twice the live heap (D364)", async () => {
    running = await startPetri(dataDir);
    const argv = readFileSync(`/proc/${running.child.pid}/cmdline`, "utf8").split("\0");
    expect(argv).toContain("--heap-growing-percent=100");
    running.child.kill("SIGTERM");
    expect(await running.exit).toEqual({ code: 0, signal: null });
  });

  it("after a SIGKILL of Node the database goes too, and the next start has the data", async () => {
    running = await startPetri(dataDir);
    expect((await register(running.url, "kept@example.org")).status).toBe(201);
    running.child.kill("SIGKILL");
    await running.exit;
    await waitFor(() => processesUsing(clusterDir).length === 0);

    running = await startPetri(dataDir);
    expect((await register(running.url, "kept@example.org")).status).toBe(409);
    running.child.kill("SIGTERM");
    expect(await running.exit).toEqual({ code: 0, signal: null });
  });
});
