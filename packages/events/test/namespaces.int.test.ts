/** Two deployments on one nats-server, kept apart by their bus namespaces. */
import { events, streamFor } from "@petri/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildEnvelope } from "../src/envelope.js";
import { NatsEventBus } from "../src/nats-bus.js";
import { BusNamespace } from "../src/nats-namespace.js";
import { type NatsServerHandle, clusterInfraReady, startNatsServer } from "./support/testkit.js";
import { eventually, testLogger } from "./support/wait.js";

const skip = !(await clusterInfraReady());

describe.skipIf(skip)("bus namespaces", () => {
  let nats: NatsServerHandle;
  let a: NatsEventBus;
  let b: NatsEventBus;

  beforeAll(async () => {
    nats = await startNatsServer();
    a = await NatsEventBus.connect({
      servers: nats.url,
      name: "a",
      logger: testLogger(),
      namespace: "deploy_a",
    });
    b = await NatsEventBus.connect({
      servers: nats.url,
      name: "b",
      logger: testLogger(),
      namespace: "deploy_b",
    });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await nats?.stop();
  });

  it("gives each deployment its own streams, subjects and durable consumers", async () => {
    const stream = streamFor("identity");
    await a.ensureStream(stream);
    await b.ensureStream(stream); // same logical stream: no subject overlap on the server
    const spec = events.identity.accountRegistered;
    const envelope = buildEnvelope(
      spec,
      {},
      { aggregateId: "usr_1", aggregateVersion: 1, occurredAt: new Date() },
    );
    await a.publish(envelope);

    const seen = { a: [] as string[], b: [] as string[] };
    const stop = new AbortController();
    const consumer = {
      stream,
      durable: "notifications-accounts",
      filterSubject: spec.subject,
      ackWaitMs: 5_000,
    };
    const consuming = [
      a.consume(consumer, async (d) => void (seen.a.push(d.envelope.id), await d.ack()), {
        concurrency: 1,
        signal: stop.signal,
      }),
      b.consume(consumer, async (d) => void (seen.b.push(d.envelope.id), await d.ack()), {
        concurrency: 1,
        signal: stop.signal,
      }),
    ];
    await eventually(() => seen.a.length === 1, "deployment a receives its event");
    await new Promise((resolve) => setTimeout(resolve, 300));
    stop.abort();
    await Promise.all(consuming);
    expect(seen).toEqual({ a: [envelope.id], b: [] });
    expect((await a.streamInfo(stream.name)).messages).toBe(1);
    expect((await b.streamInfo(stream.name)).messages).toBe(0);
  });

  it("maps names predictably and refuses names NATS cannot carry", () => {
    const ns = new BusNamespace("ci-7");
    expect(ns.stream(streamFor("identity"))).toEqual({
      name: "CI_7_PETRI_IDENTITY",
      subjects: ["ci-7.petri.identity.>"],
    });
    expect(new BusNamespace("").subject("petri.x.y")).toBe("petri.x.y");
    for (const bad of ["a.b", "a b", "*", ">", "UPPER", "x".repeat(41)]) {
      expect(() => new BusNamespace(bad)).toThrow(/bus namespace/);
    }
  });
});
