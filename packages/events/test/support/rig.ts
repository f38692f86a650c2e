import { AccountRegisteredSchema } from "@petri/contracts/identity";
import type { EventSpec } from "@petri/contracts";
import { createDatabase, createMessagingTables, migrateToLatest, type Database } from "@petri/db";
import { Failpoints, systemClock, type Clock } from "@petri/service-kit";
import { sql, type Kysely } from "kysely";
import { afterAll, beforeAll, describe } from "vitest";
import type { EventBus, StreamSpec } from "../../src/bus.js";
import { ConsumerRunner, type ConsumerRunnerOptions } from "../../src/consumer-runner.js";
import { InProcessEventBus } from "../../src/in-process-bus.js";
import { NatsEventBus } from "../../src/nats-bus.js";
import { OutboxRelay, type OutboxRelayOptions } from "../../src/outbox-relay.js";
import { recordEvent } from "../../src/record-event.js";
import { createTestDatabase, startNatsServer, type NatsServerHandle, type TestDatabase } from "./testkit.js";
import { eventually, testLogger } from "./wait.js";

export type InspectableBus = EventBus & {
  streamInfo(name: string): Promise<{ messages: number; lastSeq: number }>;
};

/** One backing pair the scenarios run against: NATS + PostgreSQL, or in-process + PGlite. */
export interface Rig {
  readonly name: string;
  readonly database: Database;
  readonly bus: InspectableBus;
  /** Another adapter instance on the same backing store (a second process, a restart). */
  newBus(): Promise<InspectableBus>;
  readonly nats?: NatsServerHandle;
  readonly pgUrl?: string;
  close(): Promise<void>;
}

export interface RigFactory {
  name: string;
  /** What the rig needs: nats-server + PostgreSQL, nothing (PGlite), or PostgreSQL. */
  kind: "nats" | "in-process" | "in-process-pg";
  create(): Promise<Rig>;
}

const logger = testLogger();

/**
 * The scenario suite `body` once per rig, each in a describe block of its own: the rig is
 * created before the block's tests and closed after; where its infrastructure is missing
 * (`clusterReady` false for NATS), `skip` is true and nothing is created.
 */
export function describeOnRigs(
  factories: RigFactory[],
  clusterReady: boolean,
  body: (scope: { skip: boolean; rig: () => Rig; factory: RigFactory }) => void,
): void {
  describe.each(factories)("$name", (factory) => {
    const skip = factory.kind !== "in-process" && !clusterReady;
    let rig: Rig | undefined;
    beforeAll(async () => {
      if (!skip) rig = await factory.create();
    });
    afterAll(async () => {
      await rig?.close();
    });
    body({
      skip,
      rig: () => {
        if (!rig) throw new Error(`the ${factory.name} rig is not up`);
        return rig;
      },
      factory,
    });
  });
}

export const natsPgRig: RigFactory = {
  name: "nats-server + PostgreSQL",
  kind: "nats",
  async create() {
    const pg: TestDatabase = await createTestDatabase();
    const nats = await startNatsServer();
    const database = await createDatabase({ driver: "pg", url: pg.url, poolMax: 8 });
    const buses: NatsEventBus[] = [];
    const newBus = async () => {
      const bus = await NatsEventBus.connect({
        servers: nats.url,
        name: "events-test",
        logger,
        publishTimeoutMs: 2_000,
        resubscribeDelayMs: 200,
        reconnectTimeWaitMs: 100,
      });
      buses.push(bus);
      return bus;
    };
    const bus = await newBus();
    return {
      name: "nats+pg",
      database,
      bus,
      newBus,
      nats,
      pgUrl: pg.url,
      async close() {
        for (const b of buses) await b.close().catch(() => undefined);
        await database.destroy();
        await nats.stop();
        await pg.drop();
      },
    };
  },
};

/** The in-process bus on `database`; closing it also drops `pg`, the test database under it. */
async function inProcessRig(name: string, database: Database, pg?: TestDatabase): Promise<Rig> {
  const buses: InProcessEventBus[] = [];
  const newBus = async () => {
    const bus = await InProcessEventBus.create({ db: database, clock: systemClock, logger, pollMs: 200 });
    buses.push(bus);
    return bus;
  };
  const bus = await newBus();
  return {
    name,
    database,
    bus,
    newBus,
    ...(pg ? { pgUrl: pg.url } : {}),
    async close() {
      for (const b of buses) await b.close();
      await database.destroy();
      await pg?.drop();
    },
  };
}

export const inProcessPgliteRig: RigFactory = {
  name: "in-process bus + PGlite",
  kind: "in-process",
  async create() {
    const database = await createDatabase({ driver: "pglite", dataDir: "memory://" });
    return inProcessRig("in-process+pglite", database);
  },
};

/** The standalone adapter on PostgreSQL: the in-process bus must work on both engines. */
export const inProcessPgRig: RigFactory = {
  name: "in-process bus + PostgreSQL",
  kind: "in-process-pg",
  async create() {
    const pg: TestDatabase = await createTestDatabase();
    const database = await createDatabase({ driver: "pg", url: pg.url, poolMax: 8 });
    return inProcessRig("in-process+pg", database, pg);
  },
};

let serial = 0;

/** A service schema (messaging tables + business + effects tables) and its own stream and event. */
export interface TestService {
  schema: string;
  db: Kysely<any>;
  stream: StreamSpec;
  spec: EventSpec<typeof AccountRegisteredSchema>;
  /** Commits one business row and its event per id in `ids` (one transaction each); returns event ids. */
  commit(count: number, opts?: { aggregatePrefix?: string }): Promise<string[]>;
  relay(overrides?: Partial<OutboxRelayOptions>): OutboxRelay;
  runner(
    name: string,
    overrides?: Partial<ConsumerRunnerOptions> & { onEvent?: (aggregateId: string) => void },
  ): ConsumerRunner;
  /** event id -> number of effects applied (rows written by handlers). */
  effects(consumer?: string): Promise<Map<string, number>>;
  unsent(): Promise<number>;
  /** Runs relays' runOnce until the outbox is empty. */
  drain(relay: OutboxRelay, timeoutMs?: number): Promise<void>;
}

export async function createTestService(rig: Rig, clock: Clock = systemClock): Promise<TestService> {
  serial += 1;
  const tag = `t${serial}${Math.random().toString(36).slice(2, 7)}`;
  const schema = `svc_${tag}`;
  await migrateToLatest(rig.database, schema, {
    "2026_01_01_0000_init": {
      async up(db) {
        await createMessagingTables(db);
        await db.schema
          .createTable("business")
          .addColumn("id", "text", (c) => c.primaryKey())
          .execute();
        // Deliberately no unique constraint: a duplicate effect shows up as a second row.
        await db.schema
          .createTable("effects")
          .addColumn("consumer", "text", (c) => c.notNull())
          .addColumn("event_id", "text", (c) => c.notNull())
          .addColumn("aggregate_id", "text", (c) => c.notNull())
          .execute();
      },
    },
  });
  const db = rig.database.forSchema<any>(schema);
  const stream: StreamSpec = { name: `PETRI_${tag.toUpperCase()}`, subjects: [`petri.${tag}.>`] };
  const spec: EventSpec<typeof AccountRegisteredSchema> = {
    subject: `petri.${tag}.account_registered`,
    source: "identity",
    schema: AccountRegisteredSchema,
  };
  let aggregate = 0;
  const service: TestService = {
    schema,
    db,
    stream,
    spec,
    async commit(count, opts = {}) {
      const ids: string[] = [];
      for (let i = 0; i < count; i += 1) {
        aggregate += 1;
        const aggregateId = `${opts.aggregatePrefix ?? "usr"}_${aggregate}`;
        const envelope = await db.transaction().execute(async (trx) => {
          await trx.insertInto("business").values({ id: aggregateId }).execute();
          return recordEvent(
            trx,
            spec,
            { account: { id: aggregateId } },
            {
              aggregateId,
              aggregateVersion: 1,
              occurredAt: clock.now(),
            },
          );
        });
        ids.push(envelope.id);
      }
      return ids;
    },
    relay(overrides = {}) {
      return new OutboxRelay({
        db,
        bus: rig.bus,
        stream,
        logger,
        clock,
        failpoints: new Failpoints(),
        leaseMs: 1_000,
        idleMs: 20,
        retryBackoffMs: () => 100,
        ...overrides,
      });
    },
    runner(name, overrides = {}) {
      const { onEvent, ...rest } = overrides;
      return new ConsumerRunner({
        db,
        bus: rig.bus,
        name,
        logger,
        clock,
        failpoints: new Failpoints(),
        ackWaitMs: 1_000,
        backoffMs: () => 100,
        subscriptions: [
          {
            stream,
            filterSubject: stream.subjects[0]!,
            handlers: {
              [spec.schema.typeName]: async ({ trx, envelope }) => {
                onEvent?.(envelope.aggregateId);
                await trx
                  .insertInto("effects")
                  .values({ consumer: name, event_id: envelope.id, aggregate_id: envelope.aggregateId })
                  .execute();
              },
            },
          },
        ],
        ...rest,
      });
    },
    async effects(consumer) {
      let q = db
        .selectFrom("effects")
        .select(["event_id", sql<number>`count(*)`.as("n")])
        .groupBy("event_id");
      if (consumer) q = q.where("consumer", "=", consumer);
      const rows = await q.execute();
      return new Map(rows.map((r: { event_id: string; n: number | string }) => [r.event_id, Number(r.n)]));
    },
    async unsent() {
      const row = await db
        .selectFrom("outbox")
        .select(sql<number>`count(*)`.as("n"))
        .where("sent_at", "is", null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async drain(relay, timeoutMs = 20_000) {
      await eventually(
        async () => {
          await relay.runOnce();
          return (await service.unsent()) === 0;
        },
        "outbox drained",
        timeoutMs,
      );
    },
  };
  return service;
}

/** Every id appears exactly once in `effects` and nothing else does. */
export function expectExactlyOnce(
  effects: Map<string, number>,
  ids: string[],
): { missing: string[]; duplicated: string[]; unexpected: string[] } {
  const want = new Set(ids);
  return {
    missing: ids.filter((id) => !effects.has(id)),
    duplicated: [...effects].filter(([, n]) => n > 1).map(([id]) => id),
    unexpected: [...effects.keys()].filter((id) => !want.has(id)),
  };
}
