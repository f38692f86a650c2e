/**
 * EventBus.subscribe on NATS: every process (here: two connections) sees every matching
 * message published after it subscribed, unlike a durable consumer whose members share the
 * work. What was published before is not replayed.
 */
import { events, streamFor } from "@petri/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildEnvelope } from "../src/envelope.js";
import { NatsEventBus } from "../src/nats-bus.js";
import { type NatsServerHandle, clusterInfraReady, startNatsServer } from "./support/testkit.js";
import { eventually, testLogger } from "./support/wait.js";

const skip = !(await clusterInfraReady());

describe.skipIf(skip)("NatsEventBus.subscribe", () => {
  let nats: NatsServerHandle;
  let a: NatsEventBus;
  let b: NatsEventBus;

  beforeAll(async () => {
    nats = await startNatsServer();
    a = await NatsEventBus.connect({ servers: nats.url, name: "a", logger: testLogger() });
    b = await NatsEventBus.connect({ servers: nats.url, name: "b", logger: testLogger() });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await nats?.stop();
  });

  const meta = () => ({ aggregateId: "usr_1", aggregateVersion: 1, occurredAt: new Date() });
  const revoked = () => buildEnvelope(events.identity.credentialsRevoked, {}, meta());

  it("delivers each new matching message to every subscriber", async () => {
    const stream = streamFor("identity");
    await a.ensureStream(stream);
    const old = revoked();
    await a.publish(old);

    const seen = { a: [] as string[], b: [] as string[] };
    const stop = new AbortController();
    const filterSubject = events.identity.credentialsRevoked.subject;
    await a.subscribe({ stream, filterSubject }, (e) => seen.a.push(e.id), stop.signal);
    await b.subscribe({ stream, filterSubject }, (e) => seen.b.push(e.id), stop.signal);

    const fresh = revoked();
    await a.publish(buildEnvelope(events.identity.accountRegistered, {}, meta())); // filtered out
    await a.publish(fresh);
    await eventually(() => seen.a.length >= 1 && seen.b.length >= 1, "both subscribers see the message");
    const last = revoked();
    await b.publish(last);
    await eventually(() => seen.a.length >= 2 && seen.b.length >= 2, "both subscribers see the second");
    expect(seen.a).toEqual([fresh.id, last.id]);
    expect(seen.b).toEqual([fresh.id, last.id]);
    stop.abort();
  });
});
