/**
 * The service runtime on the standalone backing pair (PGlite + the in-process bus): readiness
 * follows the migrations and the consumers, and an event a use case records reaches a
 * consumer through the runtime's own relay and runner.
 */
import { events, streamFor } from "@petri/contracts";
import { createDatabase, createMessagingTables, dropMessagingTables, type Database } from "@petri/db";
import { InProcessEventBus, on, recordEvent } from "@petri/events";
import { Failpoints, createLogger, systemClock, type ReadinessReport } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS_CHECK } from "../src/await-migrations.js";
import { createServiceRuntime } from "../src/service-runtime.js";

const logger = createLogger({ service: "host-test", level: "silent" });

const migrations = {
  "2026_01_01_0000_messaging": {
    up: (db: Kysely<any>) => createMessagingTables(db),
    down: (db: Kysely<any>) => dropMessagingTables(db),
  },
};

const check = (report: ReadinessReport, name: string) => report.checks.find((c) => c.name === name);

describe("createServiceRuntime", () => {
  let database: Database;
  let bus: InProcessEventBus;
  const received: string[] = [];

  beforeAll(async () => {
    database = await createDatabase({ driver: "pglite", dataDir: "memory://" });
    bus = await InProcessEventBus.create({ db: database, clock: systemClock, logger, pollMs: 200 });
  });
  afterAll(async () => {
    await bus?.close();
    await database?.destroy();
  });

  const runtime = () =>
    createServiceRuntime({
      service: "identity",
      database,
      bus,
      clock: systemClock,
      logger,
      failpoints: new Failpoints(),
      migrations,
      consumers: [
        {
          name: "host-test-identity",
          subscriptions: [
            {
              stream: streamFor("identity"),
              filterSubject: events.identity.credentialsRevoked.subject,
              handlers: {
                ...on(events.identity.credentialsRevoked, async ({ envelope }) => {
                  received.push(envelope.id);
                }),
              },
            },
          ],
        },
      ],
    });

  it("is not ready before its migrations, nor before its consumers start; ready after both", async () => {
    const { hosted } = runtime();
    const before = await hosted.readiness();
    expect(before.ready).toBe(false);
    expect(check(before, "database")?.ok).toBe(true);
    expect(check(before, MIGRATIONS_CHECK)).toMatchObject({
      ok: false,
      detail: "pending: 2026_01_01_0000_messaging",
    });
    expect(check(before, "consumers")?.ok).toBe(false);

    await hosted.migrate();
    const migrated = await hosted.readiness();
    expect(check(migrated, MIGRATIONS_CHECK)?.ok).toBe(true);
    expect(migrated.ready).toBe(false);

    await hosted.start();
    try {
      expect(await hosted.readiness()).toMatchObject({ ready: true });
    } finally {
      await hosted.stop();
    }
    const stopped = await hosted.readiness();
    expect(stopped.ready).toBe(false);
    expect(check(stopped, "consumers")?.ok).toBe(false);
  });

  it("relays a recorded event to the service's consumer once afterCommit pokes the relay", async () => {
    const service = runtime();
    await service.hosted.migrate();
    await service.hosted.start();
    try {
      const envelope = await service.db.transaction().execute((trx) =>
        recordEvent(
          trx,
          events.identity.credentialsRevoked,
          {},
          {
            aggregateId: "usr_host_test",
            aggregateVersion: 1,
            occurredAt: systemClock.now(),
          },
        ),
      );
      service.afterCommit();
      await expect.poll(() => received, { timeout: 10_000 }).toContain(envelope.id);
    } finally {
      await service.hosted.stop();
    }
  });
});
