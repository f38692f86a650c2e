/**
 * NATS-only fault tests: nats-server SIGKILLed under load (E9), a relay process killed by
 * a real SIGKILL at the crash point (E2), and JetStream provisioning.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { FAILPOINT, Failpoints } from "@petri/service-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NatsEventBus } from "../src/nats-bus.js";
import { createTestService, expectExactlyOnce, natsPgRig, type Rig } from "./support/rig.js";
import { clusterInfraReady } from "./support/testkit.js";
import { eventually, testLogger } from "./support/wait.js";

const skip = !(await clusterInfraReady());

describe.skipIf(skip)("NATS faults", () => {
  let rig: Rig;

  beforeAll(async () => {
    rig = await natsPgRig.create();
  });
  afterAll(async () => {
    await rig?.close();
  });

  it("(e) nats-server SIGKILLed and restarted while the relay publishes 500 events: nothing lost, no effect twice", async () => {
    const svc = await createTestService(rig);
    const ids = await svc.commit(500);
    // A short pause after each puback keeps the relay mid-stream when the server dies.
    const slow = new Failpoints();
    slow.arm(FAILPOINT.afterPubackBeforeMarkSent, "delay:4");
    const relay = svc.relay({ batchSize: 25, failpoints: slow });
    const runner = svc.runner("svc-kill--effects", { ackWaitMs: 2_000 });
    runner.start();
    relay.start();
    await eventually(() => relay.stats().published >= 150, "150 published before the kill");
    await rig.nats!.kill();
    expect(relay.stats().published).toBeLessThan(500);
    await eventually(() => !rig.bus.connected(), "the bus notices the disconnect");
    await new Promise((r) => setTimeout(r, 500));
    await rig.nats!.restart();
    await eventually(() => rig.bus.connected(), "the bus reconnects");
    await eventually(async () => (await svc.unsent()) === 0, "outbox drained after the restart", 60_000);
    await eventually(
      async () => (await svc.effects()).size === 500,
      async () => `500 effects, have ${(await svc.effects()).size}`,
      60_000,
    );
    await relay.stop();
    await new Promise((r) => setTimeout(r, 500));
    await runner.stop();
    expect(expectExactlyOnce(await svc.effects(), ids)).toEqual({
      missing: [],
      duplicated: [],
      unexpected: [],
    });
    const info = await rig.bus.streamInfo(svc.stream.name);
    expect(info.messages).toBeGreaterThanOrEqual(500);
    console.info(
      `[nats kill -9] relay ${JSON.stringify(relay.stats())}, consumer ${JSON.stringify(runner.stats())}, stream ${JSON.stringify(info)}`,
    );
  });

  it("a relay process SIGKILLed after the puback (FAILPOINTS=...=crash) is resumed by another; effects once", async () => {
    const svc = await createTestService(rig);
    const ids = await svc.commit(8);
    const script = fileURLToPath(new URL("./fixtures/relay-child.ts", import.meta.url));
    const child = spawn(process.execPath, ["--conditions=@petri/source", "--import", "tsx", script], {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      env: {
        ...process.env,
        FAILPOINTS: "after_puback_before_mark_sent=crash",
        TEST_DATABASE_URL: rig.pgUrl,
        TEST_NATS_URL: rig.nats!.url,
        TEST_SCHEMA: svc.schema,
        TEST_STREAM: JSON.stringify(svc.stream),
        TEST_LEASE_MS: "1500",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal })),
    );
    expect(exit, output).toEqual({ code: null, signal: "SIGKILL" });
    expect(output).toContain("relay-child: started");
    expect(output).not.toContain("without crashing");

    // The child published one event and died holding the lease on all eight.
    expect(await svc.unsent()).toBe(8);
    expect((await rig.bus.streamInfo(svc.stream.name)).messages).toBe(1);
    const relay = svc.relay({ leaseMs: 1_500 });
    await svc.drain(relay);
    expect(relay.stats()).toMatchObject({ published: 7, duplicates: 1 });
    expect((await rig.bus.streamInfo(svc.stream.name)).messages).toBe(8);

    const runner = svc.runner("svc-oscrash--effects");
    runner.start();
    await eventually(async () => (await svc.effects()).size === 8, "eight effects");
    await new Promise((r) => setTimeout(r, 300));
    await runner.stop();
    expect(expectExactlyOnce(await svc.effects(), ids)).toEqual({
      missing: [],
      duplicated: [],
      unexpected: [],
    });
  });

  it("provisions streams and consumers idempotently and keeps the filter on nats-server 2.9", async () => {
    const logger = testLogger();
    const bus = await NatsEventBus.connect({ servers: rig.nats!.url, name: "provisioning", logger });
    const nc = await connect({ servers: rig.nats!.url });
    const jsm = await jetstreamManager(nc);
    try {
      const stream = { name: "PROVISION", subjects: ["petri.prov.>"] };
      await bus.ensureStream(stream);
      await bus.ensureStream(stream);
      let info = await jsm.streams.info("PROVISION");
      expect(info.config.subjects).toEqual(["petri.prov.>"]);
      expect(info.config.storage).toBe("file");
      expect(info.config.duplicate_window).toBe(120_000_000_000);

      await bus.ensureStream({ name: "PROVISION", subjects: ["petri.prov.>", "petri.prov2.>"] });
      info = await jsm.streams.info("PROVISION");
      expect([...info.config.subjects].sort()).toEqual(["petri.prov.>", "petri.prov2.>"]);

      const spec = { stream, durable: "prov--x", filterSubject: "petri.prov.x.*", ackWaitMs: 2_000 };
      const created = await bus.ensureConsumer(spec);
      expect(created.config).toMatchObject({
        durable_name: "prov--x",
        ack_policy: "explicit",
        filter_subject: "petri.prov.x.*",
        ack_wait: 2_000_000_000,
        max_deliver: -1,
      });
      const again = await bus.ensureConsumer(spec);
      expect(again.created).toEqual(created.created);
      const changed = await bus.ensureConsumer({
        ...spec,
        filterSubject: "petri.prov.y.*",
        ackWaitMs: 3_000,
      });
      expect(changed.config).toMatchObject({ filter_subject: "petri.prov.y.*", ack_wait: 3_000_000_000 });
      expect(bus.connected()).toBe(true);

      // Publish: Nats-Msg-Id = event id, traceparent travels as a header, the body is the envelope.
      const { buildEnvelope, decodeEnvelope } = await import("../src/envelope.js");
      const { events } = await import("@petri/contracts");
      const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
      const envelope = buildEnvelope(
        events.identity.accountRegistered,
        {},
        {
          aggregateId: "usr_1",
          aggregateVersion: 1,
          occurredAt: new Date(),
          traceparent,
        },
      );
      envelope.subject = "petri.prov.x.created";
      const ack = await bus.publish(envelope);
      expect(ack).toMatchObject({ stream: "PROVISION", duplicate: false });
      expect(await bus.publish(envelope)).toEqual({ ...ack, duplicate: true });
      const stored = await jsm.streams.getMessage("PROVISION", { seq: ack.seq });
      expect(stored?.header.get("Nats-Msg-Id")).toBe(envelope.id);
      expect(stored?.header.get("traceparent")).toBe(traceparent);
      expect(decodeEnvelope(stored!.data)).toEqual(envelope);
    } finally {
      await nc.close();
      await bus.close();
    }
    expect(bus.connected()).toBe(false);
  });

  it("never runs more than `concurrency` handlers at once and resumes consuming after a server restart", async () => {
    const bus = await NatsEventBus.connect({
      servers: rig.nats!.url,
      name: "bounded",
      logger: testLogger(),
      resubscribeDelayMs: 100,
      reconnectTimeWaitMs: 100,
    });
    const stream = { name: "BOUNDED", subjects: ["petri.bounded.>"] };
    await bus.ensureStream(stream);
    const { buildEnvelope } = await import("../src/envelope.js");
    const { events } = await import("@petri/contracts");
    const publish = async (n: number) => {
      for (let i = 0; i < n; i += 1) {
        const e = buildEnvelope(
          events.identity.accountRegistered,
          {},
          { aggregateId: `a${i}`, aggregateVersion: 1, occurredAt: new Date() },
        );
        e.subject = "petri.bounded.x";
        await bus.publish(e);
      }
    };
    await publish(30);
    let running = 0;
    let peak = 0;
    const seen = new Set<string>();
    const controller = new AbortController();
    const done = bus.consume(
      { stream, durable: "bounded", filterSubject: "petri.bounded.>", ackWaitMs: 2_000 },
      async (d) => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 10));
        running -= 1;
        seen.add(d.envelope.id);
        await d.ack();
      },
      { concurrency: 3, signal: controller.signal },
    );
    await eventually(() => seen.size === 30, "30 handled");
    expect(peak).toBe(3);

    await rig.nats!.kill();
    await rig.nats!.restart();
    await eventually(() => bus.connected(), "reconnected");
    await publish(10);
    await eventually(
      () => seen.size === 40,
      () => `40 handled after the restart, have ${seen.size}`,
      30_000,
    );
    controller.abort();
    await done;
    await bus.close();
  });
});
