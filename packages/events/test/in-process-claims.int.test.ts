/**
 * The in-process bus claims in one statement (in-process-store.ts): on PostgreSQL, where two
 * processes (or two loops) of one durable claim at the same time, every matching message is
 * delivered once and a message the filter does not match is never delivered, while publishes
 * keep arriving between the claims.
 */
import { events } from "@petri/contracts";
import type { EventEnvelope } from "@petri/contracts/common";
import { sql } from "kysely";
import { expect, it } from "vitest";
import type { StreamSpec } from "../src/bus.js";
import { buildEnvelope, encodeEnvelope } from "../src/envelope.js";
import { InProcessBusStore } from "../src/in-process-store.js";
import { describeOnRigs, inProcessPgRig } from "./support/rig.js";
import { clusterInfraReady } from "./support/testkit.js";
import { eventually } from "./support/wait.js";

function envelopeOn(subject: string, index: number): EventEnvelope {
  const envelope = buildEnvelope(
    events.identity.accountRegistered,
    { account: { id: `usr_${index}` } },
    { aggregateId: `usr_${index}`, aggregateVersion: 1, occurredAt: new Date() },
  );
  envelope.subject = subject;
  return envelope;
}

const infraReady = await clusterInfraReady();

describeOnRigs([inProcessPgRig], infraReady, ({ skip, rig }) => {
  it.skipIf(skip)(
    "two buses sharing a durable on one database: each matching message once, the others never",
    async () => {
      const first = rig().bus;
      const second = await rig().newBus();
      const stream: StreamSpec = { name: "CLAIMS", subjects: ["petri.claims.>"] };
      await first.ensureStream(stream);
      const delivered: string[] = [];
      const stop = new AbortController();
      const consumer = { stream, durable: "shared", filterSubject: "petri.claims.*.wanted" };
      const loops = [first, second].map((bus) =>
        bus.consume(
          consumer,
          async (delivery) => {
            delivered.push(delivery.envelope.id);
            await delivery.ack();
          },
          { concurrency: 3, signal: stop.signal },
        ),
      );

      const wanted: string[] = [];
      const publishes: Promise<unknown>[] = [];
      for (let index = 0; index < 120; index += 1) {
        const kind = index % 3 === 0 ? "unwanted" : "wanted";
        const envelope = envelopeOn(`petri.claims.e${index}.${kind}`, index);
        if (kind === "wanted") wanted.push(envelope.id);
        // Alternate publishers, a few at a time, so claims interleave with appends.
        publishes.push((index % 2 === 0 ? first : second).publish(envelope));
        if (publishes.length % 4 === 0) await Promise.all(publishes.splice(0));
      }
      await Promise.all(publishes);

      await eventually(() => delivered.length >= wanted.length, "every wanted message delivered");
      stop.abort();
      await Promise.all(loops);
      expect([...delivered].sort()).toEqual([...wanted].sort());
      expect(await first.consumerLag?.(stream, "shared")).toEqual({ pending: 0, unacknowledged: 0 });
    },
  );

  it.skipIf(skip)(
    "a claim behind a backlog reads as many messages as it takes, not the whole backlog, with a plan made once",
    async () => {
      const { database } = rig();
      const store = new InProcessBusStore(database);
      const now = new Date();
      const stream: StreamSpec = { name: "BACKLOG", subjects: ["petri.backlog.>"] };
      const consumer = { stream, durable: "behind", filterSubject: "petri.backlog.>" };
      await store.saveStream(stream.name, stream.subjects, now);
      await store.saveConsumer(consumer, 30_000, now);
      // Statistics taken while the stream was short, as a busy server's often are.
      await sql`ANALYZE petri_bus.messages`.execute(database.root);
      const backlog = 600;
      for (let index = 0; index < backlog; index += 1) {
        const envelope = envelopeOn(`petri.backlog.e${index}`, index);
        await store.append(
          stream.name,
          { subject: envelope.subject, id: envelope.id, bytes: encodeEnvelope(envelope) },
          now,
        );
      }

      // pg_stat_xact_user_tables counts the reads of each table this connection has not yet
      // reported: the difference across the claim is the claim's.
      const read = await database.root.transaction().execute(async (trx) => {
        const messagesRead = async () => {
          const stats = await sql<{ tuples: string }>`
            SELECT coalesce(idx_tup_fetch, 0) + coalesce(seq_tup_read, 0) AS tuples
            FROM pg_stat_xact_user_tables WHERE schemaname = 'petri_bus' AND relname = 'messages'`.execute(
            trx,
          );
          return Number(stats.rows[0]!.tuples);
        };
        const before = await messagesRead();
        const claimed = await sql<{ n: string }>`
          SELECT count(*) AS n FROM petri_bus.claim(${stream.name}, ${consumer.durable}, '.*', 8,
            ${now}, ${new Date(now.getTime() + 30_000)}, false)`.execute(trx);
        return { claimed: Number(claimed.rows[0]!.n), tuples: (await messagesRead()) - before };
      });
      expect(read.claimed).toBe(8);
      // The eight claimed, read again for their envelopes: 16. Reading the backlog is 600 and more.
      expect(read.tuples).toBeLessThanOrEqual(32);

      // Planned once per connection, not for every call (D363).
      const settings = await sql<{ proconfig: string[] }>`
        SELECT proconfig FROM pg_proc WHERE oid = 'petri_bus.claim'::regproc`.execute(database.root);
      expect(settings.rows[0]!.proconfig).toContain("plan_cache_mode=force_generic_plan");
    },
  );
});
