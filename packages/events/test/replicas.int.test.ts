/**
 * Stream replicas on a three-node JetStream cluster (deploy/local/nats-cluster.sh): streams are
 * created with PETRI_STREAM_REPLICAS copies, a stream made with fewer is raised (its durable
 * consumers follow), and a process configured with fewer never lowers it.
 */
import { streamFor } from "@petri/contracts";
import { jetstreamManager, type JetStreamManager } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { startNatsCluster, type NatsClusterHandle } from "@petri/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NatsEventBus } from "../src/nats-bus.js";
import { clusterInfraReady } from "./support/testkit.js";
import { eventually, testLogger } from "./support/wait.js";

const skip = !(await clusterInfraReady());

describe.skipIf(skip)("stream replicas on a three-node JetStream cluster", { timeout: 120_000 }, () => {
  let cluster: NatsClusterHandle;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  const buses: NatsEventBus[] = [];

  const bus = async (streamReplicas: number) => {
    const opened = await NatsEventBus.connect({
      servers: cluster.servers.split(","),
      name: `r${streamReplicas}`,
      logger: testLogger(),
      namespace: "replicas",
      streamReplicas,
    });
    buses.push(opened);
    return opened;
  };
  const peers = (info: { cluster?: { leader?: string; replicas?: { current: boolean }[] } }) =>
    (info.cluster?.leader ? 1 : 0) + (info.cluster?.replicas?.length ?? 0);

  beforeAll(async () => {
    cluster = await startNatsCluster();
    nc = await connect({ servers: cluster.servers.split(",") });
    jsm = await jetstreamManager(nc);
  }, 90_000);
  afterAll(async () => {
    for (const b of buses) await b.close();
    await nc?.close();
    await cluster?.stop();
  }, 90_000);

  it("creates streams with the configured copies", async () => {
    const three = await bus(3);
    await three.ensureStream(streamFor("hypotheses"));
    const info = await jsm.streams.info("REPLICAS_PETRI_HYPOTHESES");
    expect(info.config.num_replicas).toBe(3);
    expect(peers(info)).toBe(3);
  });

  it("raises a stream made with one copy, with its durable consumer, and never lowers it", async () => {
    const stream = streamFor("identity");
    const consumer = { stream, durable: "raised", filterSubject: "petri.identity.>" };
    const one = await bus(1);
    await one.ensureStream(stream);
    await one.ensureConsumer(consumer);
    const before = await jsm.streams.info("REPLICAS_PETRI_IDENTITY");
    expect(before.config.num_replicas).toBe(1);

    const three = await bus(3);
    await three.ensureStream(stream);
    await three.ensureConsumer(consumer);
    await eventually(
      // A request during the elections the raise starts may time out: that is "not yet".
      async () => peers(await jsm.streams.info("REPLICAS_PETRI_IDENTITY").catch(() => ({}))) === 3,
      "the stream on three nodes",
      30_000,
    );
    await eventually(
      async () =>
        peers(await jsm.consumers.info("REPLICAS_PETRI_IDENTITY", "replicas_raised").catch(() => ({}))) === 3,
      async () =>
        `the consumer on three nodes: ${JSON.stringify((await jsm.consumers.info("REPLICAS_PETRI_IDENTITY", "replicas_raised")).cluster)}`,
      30_000,
    );

    await one.ensureStream(stream);
    expect((await jsm.streams.info("REPLICAS_PETRI_IDENTITY")).config.num_replicas).toBe(3);
  });
});
