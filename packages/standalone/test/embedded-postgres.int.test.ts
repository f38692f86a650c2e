import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createLogger } from "@petri/service-kit";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { beginPreparingEmbeddedCluster, embeddedClusterPaths } from "../src/embedded-cluster.js";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "../src/embedded-postgres.js";
import { processesUsing, waitFor } from "./support/processes.js";

const logger = createLogger({ service: "embedded-postgres-test", level: "warn" });

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

describe("the embedded PostgreSQL server", { timeout: 120_000 }, () => {
  const dirs: string[] = [];
  const servers: EmbeddedPostgres[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), "petri-embedded-pg-"));
    dirs.push(dir);
    return dir;
  };
  const start = async (dir: string) => {
    const server = await startEmbeddedPostgres({
      clusterDir: path.join(dir, "postgres"),
      passwordFile: path.join(dir, "postgres-password"),
      logger,
    });
    servers.push(server);
    return server;
  };

  afterEach(async () => {
    for (const server of servers.splice(0)) await server.stop();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("keeps its data across a stop and a start, and leaves no server process behind", async () => {
    const dir = dataDir();
    const first = await start(dir);
    await query(first.url, "create table kept (note text)");
    await query(first.url, "insert into kept values ('written before the restart')");
    await first.stop();
    expect(processesUsing(path.join(dir, "postgres"))).toEqual([]);

    const second = await start(dir);
    expect(await query(second.url, "select note from kept")).toEqual([
      { note: "written before the restart" },
    ]);
  });

  it("listens on 127.0.0.1 only, with a password, and keeps that password private", async () => {
    const dir = dataDir();
    const server = await start(dir);
    const url = new URL(server.url);
    expect(url.hostname).toBe("127.0.0.1");
    const [settings] = await query<{ listen: string; sockets: string }>(
      server.url,
      "select current_setting('listen_addresses') as listen, current_setting('unix_socket_directories') as sockets",
    );
    expect(settings).toEqual({ listen: "127.0.0.1", sockets: "" });
    await expect(query(server.url.replace(url.password, "wrong"), "select 1")).rejects.toThrow(/password/);
    expect(readFileSync(path.join(dir, "postgres-password"), "utf8").trim()).toBe(
      decodeURIComponent(url.password),
    );
    expect((await import("node:fs")).statSync(path.join(dir, "postgres-password")).mode & 0o077).toBe(0);
  });

  it("stops a server left running on its cluster by an earlier process before starting", async () => {
    const dir = dataDir();
    const first = await start(dir);
    await query(first.url, "create table kept (note text)");
    // The supervising shell dies without a word (as after a SIGKILL of its whole session): the
    // server goes on running, holding postmaster.pid.
    process.kill(first.pid, "SIGKILL");
    const clusterDir = path.join(dir, "postgres");
    await waitFor(() => processesUsing(clusterDir).length > 0);
    const leftover = Number(readFileSync(path.join(clusterDir, "postmaster.pid"), "utf8").split("\n")[0]);

    const second = await start(dir);
    expect(await query(second.url, "select count(*)::int as n from kept")).toEqual([{ n: 0 }]);
    expect(processesUsing(clusterDir)).not.toContain(leftover);
  });

  it("starts over a stale postmaster.pid whose process is gone", async () => {
    const dir = dataDir();
    const first = await start(dir);
    await first.stop();
    const lockFile = path.join(dir, "postgres", "postmaster.pid");
    // A pid that no process has now (as after a reboot).
    const pids = new Set(
      readdirSync("/proc")
        .filter((name) => /^\d+$/.test(name))
        .map(Number),
    );
    let dead = 4_000_000;
    while (pids.has(dead)) dead -= 1;
    writeFileSync(lockFile, `${dead}\n${path.join(dir, "postgres")}\n`);

    const second = await start(dir);
    expect(await query(second.url, "select 1 as one")).toEqual([{ one: 1 }]);
  });

  it("takes over a preparation begun early, once: a later start prepares afresh", async () => {
    const dir = dataDir();
    const paths = embeddedClusterPaths(dir);
    await beginPreparingEmbeddedCluster(paths);
    const lines: string[] = [];
    const listening = createLogger({
      service: "embedded-postgres-test",
      level: "info",
      destination: { write: (line: string) => void lines.push(line) },
    });
    const first = await startEmbeddedPostgres({ ...paths, logger: listening });
    servers.push(first);
    await query(first.url, "create table kept (note text)");
    await first.stop();
    expect(lines.filter((line) => line.includes("initialised the embedded database"))).toHaveLength(1);

    // Not the early outcome again ("initialised", no leftover check): this cluster exists now.
    lines.length = 0;
    const second = await startEmbeddedPostgres({ ...paths, logger: listening });
    servers.push(second);
    expect(await query(second.url, "select count(*)::int as n from kept")).toEqual([{ n: 0 }]);
    expect(lines.filter((line) => line.includes("initialised the embedded database"))).toEqual([]);
  });

  it("reports a preparation begun early that failed when the server starts", async () => {
    const dir = dataDir();
    // Not empty and no cluster: initdb is refused (as after an initdb killed halfway).
    const paths = embeddedClusterPaths(dir);
    mkdirSync(paths.clusterDir);
    writeFileSync(path.join(paths.clusterDir, "stray"), "");
    await beginPreparingEmbeddedCluster(paths);
    // Failed before anyone awaits it: no unhandled rejection (vitest fails on one), and the host's start reports it.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await expect(start(dir)).rejects.toThrow(/is not empty and holds no PostgreSQL cluster/);
  });
});
