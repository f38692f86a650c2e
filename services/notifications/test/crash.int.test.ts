/**
 * kill -9 of the notifications process in the middle of 1,000 events (reliability test plan
 * W7 and the crash test): every event is delivered at least once, none is lost, and
 * every duplicate a receiver sees is a retry of the same webhook-id with the same bytes.
 * The process dies once at the named crash point after a 2xx (FAILPOINTS
 * after_2xx_before_delivery_recorded=crash) and several times at random moments.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { streamFor } from "@petri/contracts";
import { type Database, createDatabase } from "@petri/db";
import { InProcessEventBus } from "@petri/events";
import { createLogger, systemClock } from "@petri/service-kit";
import { type TestDatabase, createTestDatabase, postgresAvailable, requireInfra } from "@petri/testkit";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NotificationsDb } from "../src/db/schema.js";
import { consumed, eventually, experiment, experimentEvent, requester } from "./support/harness.js";
import { TestReceiver } from "./support/receiver.js";

const EVENTS = 1_000;
const ACCOUNTS = 20;
const RANDOM_KILLS = 4;
const LEASE_MS = 10_000;
/** Attempts in flight per receiver: the most a single kill can leave unrecorded after their 2xx. */
const PER_RECEIVER = 4;

const pgReady = requireInfra("PostgreSQL", await postgresAvailable());

describe.skipIf(!pgReady)("kill -9 of the notifications process during 1,000 events", () => {
  let testDb: TestDatabase;
  let database: Database;
  let bus: InProcessEventBus;
  let receiver: TestReceiver;
  let workDir: string;
  let child: ChildProcess | undefined;
  const kek = randomBytes(32).toString("base64");
  const logger = createLogger({ service: "crash-test", level: "silent" });

  beforeAll(async () => {
    testDb = await createTestDatabase("petri_notifications_crash");
    database = await createDatabase({ driver: "pg", url: testDb.url });
    bus = await InProcessEventBus.create({ db: database, clock: systemClock, logger });
    await bus.ensureStream(streamFor("experiments"));
    receiver = await TestReceiver.start();
    workDir = await mkdtemp(path.join(tmpdir(), "petri-notifications-crash-"));
    await writeFile(path.join(workDir, "ca.pem"), receiver.certificate.cert);
  });
  afterAll(async () => {
    child?.kill("SIGKILL");
    await receiver?.close();
    await bus?.close();
    await database?.destroy();
    await testDb?.drop();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  function startChild(failpoints = ""): {
    process: ChildProcess;
    started: Promise<void>;
    exited: Promise<string>;
  } {
    const script = fileURLToPath(new URL("./fixtures/notifications-child.ts", import.meta.url));
    const spawned = spawn(process.execPath, ["--conditions=@petri/source", "--import", "tsx", script], {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      env: {
        ...process.env,
        FAILPOINTS: failpoints,
        TEST_DATABASE_URL: testDb.url,
        TEST_KEK: kek,
        TEST_CA_FILE: path.join(workDir, "ca.pem"),
        TEST_LEASE_MS: String(LEASE_MS),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child = spawned;
    let output = "";
    const started = new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("notifications-child: started")) resolve();
      };
      spawned.stdout!.on("data", onData);
      spawned.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      spawned.once("exit", () => reject(new Error(`child exited before starting:\n${output}`)));
    });
    started.catch(() => undefined);
    const exited = new Promise<string>((resolve) =>
      spawned.once("exit", (code, signal) => resolve(`${signal ?? code}\n${output}`)),
    );
    return { process: spawned, started, exited };
  }

  it("delivers every event at least once; duplicates are retries of one webhook-id", async () => {
    // 1,000 experiment events from 20 accounts, as the experiments relay would publish them.
    const accounts = Array.from({ length: ACCOUNTS }, () => requester().accountId);
    const envelopes = Array.from({ length: EVENTS }, (_, i) =>
      experimentEvent(experiment(accounts[i % ACCOUNTS]!, receiver.url("crash.hooks.test")), "claimed"),
    );
    for (const envelope of envelopes) await bus.publish(envelope);
    const db = database.forSchema<NotificationsDb>("notifications") as Kysely<NotificationsDb>;

    // Crash 1: at the named point, right after the first 2xx, before recording it.
    const first = startChild("after_2xx_before_delivery_recorded=crash");
    await first.started;
    const firstExit = await first.exited;
    expect(firstExit.split("\n")[0]).toBe("SIGKILL");
    expect(receiver.requests.length).toBeGreaterThanOrEqual(1);

    // Crashes 2..n: kill -9 at a random moment while consuming and delivering.
    let kills = 1;
    for (let i = 0; i < RANDOM_KILLS; i += 1) {
      const run = startChild();
      await run.started;
      await new Promise((resolve) => setTimeout(resolve, 300 + Math.floor(Math.random() * 1_200)));
      run.process.kill("SIGKILL");
      await run.exited;
      kills += 1;
    }
    const deliveredBeforeRecovery = new Set(receiver.requests.map((r) => r.headers["webhook-id"])).size;

    // Recovery: a last process finishes the work (leases and unacknowledged events expire).
    const last = startChild();
    await last.started;
    await consumed(
      db,
      envelopes.map((envelope) => envelope.id),
      120_000,
    );
    await eventually(
      async () => {
        const open = await db
          .selectFrom("webhook_deliveries")
          .select("id")
          .where("status", "<>", "succeeded")
          .execute();
        return open.length === 0;
      },
      "every delivery succeeded",
      120_000,
    );
    last.process.kill("SIGKILL");
    await last.exited;

    // One delivery per event: none lost, none doubled at consumption.
    const deliveries = await db
      .selectFrom("webhook_deliveries")
      .select(["id", "source_event_id", "payload"])
      .execute();
    expect(deliveries).toHaveLength(EVENTS);
    expect(new Set(deliveries.map((d) => d.source_event_id))).toEqual(new Set(envelopes.map((e) => e.id)));

    // At the receiver: every webhook-id at least once, nothing unexpected, duplicates identical.
    const byId = new Map<string, Buffer[]>();
    for (const request of receiver.requests) {
      const id = String(request.headers["webhook-id"]);
      byId.set(id, [...(byId.get(id) ?? []), request.body]);
    }
    const payloads = new Map(deliveries.map((d) => [d.id, d.payload]));
    const lost = deliveries.filter((d) => !byId.has(d.id));
    const unexpected = [...byId.keys()].filter((id) => !payloads.has(id));
    expect(lost).toEqual([]);
    expect(unexpected).toEqual([]);
    let duplicates = 0;
    for (const [id, bodies] of byId) {
      duplicates += bodies.length - 1;
      for (const body of bodies) expect(body.toString("utf8")).toBe(payloads.get(id));
    }
    console.info(
      `[kill -9] ${kills} kills, ${EVENTS} events, ${deliveredBeforeRecovery} delivered before recovery, ` +
        `${receiver.requests.length} requests, ${duplicates} duplicates (${((duplicates / EVENTS) * 100).toFixed(2)}%)`,
    );
    expect(duplicates).toBeLessThanOrEqual(kills * PER_RECEIVER);
  }, 300_000);
});
