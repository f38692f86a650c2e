/**
 * Staff replay of dead letters (createDeadLetters): a failing event is dead-lettered through
 * the bus, listed, replayed once the handler works; the effect is applied exactly once,
 * whatever the number of replays; a replay that fails again keeps it pending with the new
 * reason. Against nats + PostgreSQL and the in-process bus on PGlite.
 */
import { addDeadLetterReplayColumns } from "@petri/db";
import { describe, expect, it } from "vitest";
import { createDeadLetters, deadLetterId, parseDeadLetterId } from "../src/dead-letters.js";
import {
  createTestService,
  inProcessPgliteRig,
  natsPgRig,
  type RigFactory,
  describeOnRigs,
} from "./support/rig.js";
import { clusterInfraReady } from "./support/testkit.js";
import { eventually } from "./support/wait.js";
import { systemClock } from "@petri/service-kit";

const factories: RigFactory[] = [natsPgRig, inProcessPgliteRig];
const clusterReady = await clusterInfraReady();

describe("dead letter ids", () => {
  it("name the service holding the row", () => {
    expect(deadLetterId("cloudlabs", 42)).toBe("dl_cloudlabs_42");
    expect(parseDeadLetterId("dl_cloudlabs_42")).toEqual({ service: "cloudlabs", rowId: 42 });
    for (const bad of ["dl_x_0", "dl__1", "dl_x_1a", "x_1", "dl_x_99999999999999999999"])
      expect(parseDeadLetterId(bad)).toBeUndefined();
  });
});

describeOnRigs(factories, clusterReady, ({ skip, rig }) => {
  it.skipIf(skip)("lists a dead letter, replays it once the handler works, and only once", async () => {
    const svc = await createTestService(rig());
    await addDeadLetterReplayColumns(svc.db);
    const consumer = "svc-dl--effects";
    let failWith: string | undefined = "downstream unavailable";
    const runner = svc.runner(consumer, {
      maxAttempts: 2,
      backoffMs: () => 50,
      subscriptions: [
        {
          stream: svc.stream,
          filterSubject: svc.stream.subjects[0]!,
          handlers: {
            [svc.spec.schema.typeName]: async ({ trx, envelope }) => {
              if (failWith) throw new Error(failWith);
              await trx
                .insertInto("effects")
                .values({ consumer, event_id: envelope.id, aggregate_id: envelope.aggregateId })
                .execute();
            },
          },
        },
      ],
    });
    const deadLetters = createDeadLetters({
      service: "identity",
      db: svc.db,
      clock: systemClock,
      runners: [runner],
    });
    const [eventId] = await svc.commit(1);
    const relay = svc.relay();
    runner.start();
    relay.start();
    try {
      await eventually(
        async () => (await deadLetters.list({ limit: 10 })).length === 1,
        "the event dead-lettered",
      );
    } finally {
      await relay.stop();
      await runner.stop();
    }
    const [dead] = await deadLetters.list({ limit: 10, consumer });
    expect(dead).toMatchObject({ event_id: eventId, reason: "downstream unavailable", replayed_at: null });
    expect(await deadLetters.list({ limit: 10, consumer: "someone-else" })).toEqual([]);

    // Still failing: stays pending, with the new reason and one more attempt.
    failWith = "still down";
    const again = await deadLetters.replay(dead!.id, "usr_staff");
    expect(again).toMatchObject({
      kind: "failed",
      row: { reason: "still down", attempts: dead!.attempts + 1 },
    });
    expect(await deadLetters.list({ limit: 10 })).toHaveLength(1);
    expect((await svc.effects()).size).toBe(0);

    failWith = undefined;
    const replayed = await deadLetters.replay(dead!.id, "usr_staff");
    expect(replayed).toMatchObject({
      kind: "replayed",
      result: "applied",
      row: { replayed_by: "usr_staff" },
    });
    expect(await deadLetters.list({ limit: 10 })).toEqual([]);
    const all = await deadLetters.list({ limit: 10, includeReplayed: true });
    expect(all).toHaveLength(1);
    expect(all[0]!.replayed_at).toBeInstanceOf(Date);

    // Twice: nothing more happens.
    expect(await deadLetters.replay(dead!.id, "usr_other")).toMatchObject({ kind: "already_replayed" });
    expect(await svc.effects()).toEqual(new Map([[eventId, 1]]));
    expect(await deadLetters.replay(dead!.id + 1000, "usr_staff")).toEqual({ kind: "not_found" });

    // Applied already (a second dead letter row for the same event, e.g. replay raced a
    // redelivery): the inbox answers, the effect stays single.
    await svc.db
      .updateTable("dead_letters")
      .set({ replayed_at: null, replayed_by: null })
      .where("id", "=", dead!.id)
      .execute();
    expect(await deadLetters.replay(dead!.id, "usr_staff")).toMatchObject({
      kind: "replayed",
      result: "duplicate",
    });
    expect(await svc.effects()).toEqual(new Map([[eventId, 1]]));
  });

  it.skipIf(skip)("pages newest first across services by (failed_at, service, row id)", async () => {
    const svc = await createTestService(rig());
    await addDeadLetterReplayColumns(svc.db);
    const at = new Date("2026-06-01T00:00:00.000Z");
    for (let i = 0; i < 3; i += 1)
      await svc.db
        .insertInto("dead_letters")
        .values({
          consumer: "c",
          event_id: `evt_${i}`,
          subject: "s",
          type: "t",
          envelope: new Uint8Array([1]),
          reason: "r",
          attempts: 1,
          failed_at: at,
        })
        .execute();
    const deadLetters = createDeadLetters({
      service: "identity",
      db: svc.db,
      clock: systemClock,
      runners: [],
    });
    const ids = (rows: { id: number }[]) => rows.map((row) => Number(row.id));
    const all = ids(await deadLetters.list({ limit: 10 }));
    expect(all).toHaveLength(3);
    expect(all).toEqual([...all].sort((a, b) => b - a));
    // After an identity row at the same instant: the older identity rows.
    expect(
      ids(
        await deadLetters.list({ limit: 10, after: { failedAt: at, service: "identity", rowId: all[0]! } }),
      ),
    ).toEqual(all.slice(1));
    // After a row of a service later in the order (same instant): every identity row follows it.
    expect(
      ids(await deadLetters.list({ limit: 10, after: { failedAt: at, service: "notifications", rowId: 1 } })),
    ).toEqual(all);
    // After a row of a service earlier in the order: identity rows at that instant came before it.
    expect(
      await deadLetters.list({ limit: 10, after: { failedAt: at, service: "experiments", rowId: 1 } }),
    ).toEqual([]);
  });
});
