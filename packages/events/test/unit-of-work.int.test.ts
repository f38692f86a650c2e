/**
 * The unit of work every use case changes state through: its rows and events commit together,
 * the relay is woken once after a commit that recorded events (and sees them then), and a
 * failure leaves neither rows nor events nor a wake-up. On PostgreSQL and on PGlite.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kysely } from "kysely";
import { eventFor, recordEvent, recordEvents } from "../src/record-event.js";
import { createUnitOfWork } from "../src/unit-of-work.js";
import {
  createTestService,
  inProcessPgliteRig,
  inProcessPgRig,
  type Rig,
  type TestService,
} from "./support/rig.js";

const TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

/** The outbox rows of one aggregate, read outside any transaction. */
function outboxOf(db: Kysely<any>, aggregateId: string) {
  return db
    .selectFrom("outbox")
    .select(["subject", "aggregate_version", "traceparent"])
    .where("aggregate_id", "=", aggregateId)
    .orderBy("seq")
    .execute() as Promise<Array<{ subject: string; aggregate_version: number; traceparent: string | null }>>;
}

function businessRows(db: Kysely<any>, id: string) {
  return db.selectFrom("business").select("id").where("id", "=", id).execute();
}

describe.each([inProcessPgliteRig, inProcessPgRig])("$name", (factory) => {
  let rig: Rig;
  let svc: TestService;

  beforeAll(async () => {
    rig = await factory.create();
    svc = await createTestService(rig);
  });
  afterAll(async () => {
    await rig?.close();
  });

  /** A unit of work whose wake-ups are counted, each with the outbox rows of `aggregateId` it could see. */
  function watched(aggregateId: string) {
    const seenAtWake: Array<Promise<number>> = [];
    const unitOfWork = createUnitOfWork(svc.db, () =>
      seenAtWake.push(outboxOf(svc.db, aggregateId).then((rows) => rows.length)),
    );
    return { unitOfWork, seenAtWake };
  }

  it("with awaitPublication, returns only once the hand-off settled; without, at once", async () => {
    const settle: Array<() => void> = [];
    const handOff = {
      holdUntil: () => undefined,
      committed: () => new Promise<void>((resolve) => settle.push(resolve)),
    };
    const change = (id: string) => async (trx: Kysely<any>) => {
      await recordEvent(
        trx,
        svc.spec,
        { account: { id } },
        { aggregateId: id, aggregateVersion: 1, occurredAt: new Date() },
      );
      return id;
    };
    expect(await createUnitOfWork(svc.db, handOff).run(change("usr_unawaited"))).toBe("usr_unawaited");
    let returned = false;
    const awaited = createUnitOfWork(svc.db, handOff, { awaitPublication: true })
      .run(change("usr_awaited"))
      .then((id) => {
        returned = true;
        return id;
      });
    await expect.poll(() => settle.length).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(returned).toBe(false);
    settle[1]!();
    expect(await awaited).toBe("usr_awaited");
  });

  it("commits the change with its events and wakes the relay once, after the commit", async () => {
    const aggregateId = "usr_commit";
    const { unitOfWork, seenAtWake } = watched(aggregateId);
    const meta = { aggregateId, occurredAt: new Date(), traceparent: TRACEPARENT };

    const result = await unitOfWork.run(async (trx) => {
      await trx.insertInto("business").values({ id: aggregateId }).execute();
      await recordEvent(trx, svc.spec, { account: { id: aggregateId } }, { ...meta, aggregateVersion: 1 });
      await recordEvents(trx, [
        eventFor(svc.spec, { account: { id: aggregateId } }, { ...meta, aggregateVersion: 2 }),
        eventFor(svc.spec, { account: { id: aggregateId } }, { ...meta, aggregateVersion: 3 }),
      ]);
      return "done";
    });

    expect(result).toBe("done");
    expect(await businessRows(svc.db, aggregateId)).toHaveLength(1);
    expect(await outboxOf(svc.db, aggregateId)).toEqual(
      [1, 2, 3].map((version) => ({
        subject: svc.spec.subject,
        aggregate_version: version,
        traceparent: TRACEPARENT,
      })),
    );
    expect(seenAtWake).toHaveLength(1);
    expect(await seenAtWake[0]).toBe(3);
  });

  it("rolls back the change and its events on a throw, and wakes nothing", async () => {
    const aggregateId = "usr_rollback";
    const { unitOfWork, seenAtWake } = watched(aggregateId);

    await expect(
      unitOfWork.run(async (trx) => {
        await trx.insertInto("business").values({ id: aggregateId }).execute();
        await recordEvent(
          trx,
          svc.spec,
          { account: { id: aggregateId } },
          { aggregateId, aggregateVersion: 1, occurredAt: new Date() },
        );
        throw new Error("the use case refuses after recording");
      }),
    ).rejects.toThrow("the use case refuses after recording");

    expect(await businessRows(svc.db, aggregateId)).toHaveLength(0);
    expect(await outboxOf(svc.db, aggregateId)).toHaveLength(0);
    expect(seenAtWake).toHaveLength(0);
  });

  it("commits a change without events and leaves the relay asleep", async () => {
    const aggregateId = "usr_quiet";
    const { unitOfWork, seenAtWake } = watched(aggregateId);

    await unitOfWork.run(async (trx) => {
      await trx.insertInto("business").values({ id: aggregateId }).execute();
    });

    expect(await businessRows(svc.db, aggregateId)).toHaveLength(1);
    expect(seenAtWake).toHaveLength(0);
  });

  it("wakes once per committed run: one run's events do not carry over to the next", async () => {
    const aggregateId = "usr_twice";
    const { unitOfWork, seenAtWake } = watched(aggregateId);

    await unitOfWork.run((trx) =>
      recordEvent(
        trx,
        svc.spec,
        { account: { id: aggregateId } },
        { aggregateId, aggregateVersion: 1, occurredAt: new Date() },
      ),
    );
    await unitOfWork.run(async (trx) => {
      await trx.insertInto("business").values({ id: aggregateId }).execute();
    });

    expect(seenAtWake).toHaveLength(1);
  });
});
