/**
 * A process starting while its JetStream cluster has no quorum (two of three nodes stalled,
 * or still electing after a restart) waits for the cluster instead of failing its start-up:
 * provisioning a stream and opening a broadcast subscription (what identity does at start)
 * are asked again while JetStream times out or answers 503, and go through once it settles.
 */
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { events, streamFor } from "@petri/contracts";
import { startNatsCluster, type NatsClusterHandle } from "@petri/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildEnvelope } from "../src/envelope.js";
import { NatsEventBus } from "../src/nats-bus.js";
import { clusterInfraReady } from "./support/testkit.js";
import { eventually, testLogger } from "./support/wait.js";

const skip = !(await clusterInfraReady());

describe.skipIf(skip)("a JetStream cluster without quorum", { timeout: 120_000 }, () => {
  let cluster: NatsClusterHandle;
  let bus: NatsEventBus | undefined;

  beforeAll(async () => {
    cluster = await startNatsCluster();
  }, 90_000);
  afterAll(async () => {
    await bus?.close();
    await cluster?.stop();
  }, 90_000);

  it("delays a broadcast subscription until the cluster settles, then delivers", async () => {
    const logger = testLogger();
    const [first] = cluster.servers.split(",");
    bus = await NatsEventBus.connect({
      servers: [first!],
      name: "settling",
      logger,
      namespace: "settling",
      streamReplicas: 3,
    });
    const stream = streamFor("identity");
    const filterSubject = events.identity.credentialsRevoked.subject;
    const seen: string[] = [];
    const stop = new AbortController();

    cluster.pause(2);
    cluster.pause(3);
    let outcome: "pending" | "subscribed" | Error = "pending";
    const subscribing = bus
      .subscribe({ stream, filterSubject }, (e) => seen.push(e.id), stop.signal)
      .then(
        () => (outcome = "subscribed"),
        (err: unknown) => (outcome = err instanceof Error ? err : new Error(String(err))),
      );
    try {
      await eventually(
        () =>
          outcome !== "pending" ||
          logger.records.some((r) => r.msg === "JetStream is settling; asking again"),
        "the bus to ask again or to give up",
        60_000,
      );
      expect(outcome).toBe("pending");
    } finally {
      cluster.resume(2);
      cluster.resume(3);
    }
    await subscribing;
    expect(outcome).toBe("subscribed");

    // Publish once the stream has a leader and every copy caught up: until then a thawed node's
    // elections can move the stream and reset the ordered consumer behind the subscription.
    const nc = await connect({ servers: cluster.servers.split(",") });
    try {
      const jsm = await jetstreamManager(nc);
      await eventually(
        async () => {
          const info = await jsm.streams.info(`SETTLING_${stream.name}`).catch(() => undefined);
          const replicas = info?.cluster?.replicas ?? [];
          return Boolean(info?.cluster?.leader) && replicas.length === 2 && replicas.every((r) => r.current);
        },
        "the stream's leader and both copies current",
        60_000,
      );
    } finally {
      await nc.close();
    }
    // The cluster may still be electing (a publish finds no responders) or resetting the ordered
    // consumer behind the subscription, and a broadcast feed does not replay what was published
    // meanwhile (bus.ts): publish until one arrives, a bounded number of times.
    const published: string[] = [];
    for (let attempt = 1; seen.length === 0 && attempt <= 30; attempt += 1) {
      const revoked = buildEnvelope(
        events.identity.credentialsRevoked,
        {},
        { aggregateId: `usr_${attempt}`, aggregateVersion: 1, occurredAt: new Date() },
      );
      // Until a stream leader is elected the publish finds no responders; the relay would retry.
      const accepted = await bus.publish(revoked).then(
        () => true,
        () => false,
      );
      if (accepted) published.push(revoked.id);
      await eventually(() => seen.length > 0, "the subscriber to see a revocation", 2_000).catch(
        () => undefined,
      );
    }
    expect(seen.length).toBeGreaterThan(0);
    expect(published).toEqual(expect.arrayContaining(seen));
    stop.abort();
  });
});
