/**
 * Integration harness: the notifications service on a real database (PostgreSQL or PGlite),
 * its consumers on the in-process bus, reached through a Connect router transport with the
 * production server interceptors (trace, errors, internal principal token), so every call
 * crosses the contract and the authorization checks. The experiments service is played by
 * `experimentEvent`, which builds its events (the whole experiment, its version, the request
 * JSON with the webhook preferences) as its outbox relay would publish them; identity by
 * `accountRegistered`.
 */
import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import { events } from "@petri/contracts";
import type { EventEnvelope } from "@petri/contracts/common";
import { type ExperimentSchema, ExperimentStatus } from "@petri/contracts/experiments";
import { NotificationsService } from "@petri/contracts/notifications";
import type { Database } from "@petri/db";
import { InProcessEventBus, buildEnvelope } from "@petri/events";
import {
  AddressAllowlist,
  type Failpoints,
  type Principal,
  type ResolvedAddress,
  type Resolver,
  createLogger,
  failpoints,
  newId,
} from "@petri/service-kit";
import type { Engine, TestBackend } from "@petri/service-testkit";
import { routerClients, serviceTestBed } from "@petri/service-testkit";
import { FakeClock } from "@petri/testkit";
import type { Kysely } from "kysely";
import type { WebhookEventName } from "@petri/contracts/vocabulary";
import type { NotificationsDb } from "../../src/db/schema.js";
import type { Mailer } from "../../src/mail/mailer.js";
import { type NotificationsHostedService, createNotificationsService } from "../../src/service.js";
import { testCertificate } from "./certs.js";

export type { Engine };

// The replicas log through a logger of their own (LogCapture), not the test bed's silent one.
const bed = await serviceTestBed("notifications");
export const { engines: ENGINES, backend: Backend } = bed;
export type Backend = TestBackend;

export const START = new Date("2026-03-02T10:00:00.000Z");
export { AddressAllowlist };
export const LOOPBACK = AddressAllowlist.of(["127.0.0.1/32"]);

/** Log lines the service wrote (kept so tests can look for leaked secrets). */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.lines.push(chunk.toString("utf8"));
    done();
  }
}

/** A resolver the test can reprogram: hostname -> answers (none: NXDOMAIN); counts lookups. */
export class TestResolver {
  readonly lookups: string[] = [];
  private readonly table = new Map<string, ResolvedAddress[] | (() => ResolvedAddress[])>();

  set(hostname: string, answers: string[] | (() => string[])): void {
    const toAnswers = (list: string[]) =>
      list.map((address) => ({ address, family: (address.includes(":") ? 6 : 4) as 4 | 6 }));
    this.table.set(hostname, typeof answers === "function" ? () => toAnswers(answers()) : toAnswers(answers));
  }

  readonly resolve: Resolver = async (hostname) => {
    this.lookups.push(hostname);
    const entry = this.table.get(hostname);
    if (!entry) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return typeof entry === "function" ? entry() : entry;
  };
}

export interface Notifications {
  service: NotificationsHostedService;
  db: Kysely<NotificationsDb>;
  clock: FakeClock;
  bus: InProcessEventBus;
  resolver: TestResolver;
  logs: LogCapture;
  /** The KEK it seals secrets with (another replica on the same database needs the same). */
  kek: Uint8Array;
  /** A client calling as `principal` (none: anonymous). */
  as(principal?: Principal): Client<typeof NotificationsService>;
  /** Publishes envelopes (as the experiments relay would) and waits until the consumers applied them. */
  deliver(...envelopes: EventEnvelope[]): Promise<void>;
  stop(): Promise<void>;
}

export interface Setup {
  clock?: FakeClock;
  allowlist?: AddressAllowlist;
  /** Default false: tests drive the worker with deliverDue() and dispatchMail(). */
  background?: boolean;
  failpoints?: Failpoints;
  kek?: Uint8Array;
  mailer?: Mailer;
  resolver?: TestResolver;
  delivery?: {
    maxInFlight?: number;
    perHost?: number;
    leaseMs?: number;
    pollMs?: number;
    minPollMs?: number;
  };
}

export function testKek(): Uint8Array {
  return randomBytes(32);
}

/** Creates, migrates and starts one notifications replica on `database`. */
export async function startNotifications(database: Database, setup: Setup = {}): Promise<Notifications> {
  const clock = setup.clock ?? new FakeClock(START);
  const logs = new LogCapture();
  const logger = createLogger({ service: "notifications-test", level: "debug", destination: logs });
  const bus = await InProcessEventBus.create({ db: database, clock, logger });
  const resolver = setup.resolver ?? new TestResolver();
  const kek = setup.kek ?? testKek();
  const service = createNotificationsService(
    { database, bus, clock, logger, failpoints: setup.failpoints ?? failpoints },
    {
      kek,
      resolver: resolver.resolve,
      webhookTestAllowlist: setup.allowlist ?? LOOPBACK,
      webhookCa: (await testCertificate()).cert,
      runBackgroundWork: setup.background ?? false,
      ...(setup.delivery ? { delivery: setup.delivery } : {}),
      ...(setup.mailer ? { mailer: setup.mailer } : {}),
    },
  );
  try {
    await service.migrate();
    await service.start();
  } catch (error) {
    await bus.close();
    throw error;
  }
  const db = database.forSchema<NotificationsDb>("notifications");
  const as = await routerClients(NotificationsService, (router) => service.routes(router), logger);
  let stopped = false;
  return {
    service,
    db,
    clock,
    bus,
    resolver,
    logs,
    kek,
    as,
    async deliver(...envelopes) {
      for (const envelope of envelopes) await bus.publish(envelope);
      await consumed(
        db,
        envelopes.map((envelope) => envelope.id),
      );
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await service.stop();
      await bus.close();
    },
  };
}

/** Waits (real time) until every event is in a consumer's inbox or dead letters. */
export async function consumed(
  db: Kysely<NotificationsDb>,
  ids: string[],
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const done = await db
      .selectFrom("inbox")
      .select("event_id")
      .where("event_id", "in", ids)
      .union(db.selectFrom("dead_letters").select("event_id").where("event_id", "in", ids))
      .execute();
    if (new Set(done.map((row) => row.event_id)).size >= new Set(ids).size) return;
    if (Date.now() > deadline) throw new Error(`events were never consumed: ${ids.join(", ")}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Polls (real time) until `check` holds. */
export async function eventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export { testRequester as requester } from "@petri/service-testkit";
export { testStaff as staff } from "@petri/service-testkit";

/** identity's AccountRegistered for an account (the address the pause e-mail goes to). */
export function accountRegistered(accountId: string, email: string, at = START): EventEnvelope {
  return buildEnvelope(
    events.identity.accountRegistered,
    { account: { id: accountId, email, name: "Ada" } },
    { aggregateId: accountId, aggregateVersion: 1, occurredAt: at },
  );
}

export interface ExperimentFixture {
  id: string;
  requesterAccountId: string;
  webhookUrl?: string;
  notificationEvents?: WebhookEventName[];
  version: number;
}

export function experiment(
  requesterAccountId: string,
  webhookUrl?: string,
  notificationEvents?: WebhookEventName[],
): ExperimentFixture {
  return {
    id: newId("exp"),
    requesterAccountId,
    version: 1,
    ...(webhookUrl ? { webhookUrl } : {}),
    ...(notificationEvents ? { notificationEvents } : {}),
  };
}

const STATUS_AFTER: Record<WebhookEventName, ExperimentStatus> = {
  claimed: ExperimentStatus.CLAIMED,
  started: ExperimentStatus.IN_PROGRESS,
  issue: ExperimentStatus.IN_PROGRESS,
  completed: ExperimentStatus.PENDING_APPROVAL,
  approved: ExperimentStatus.COMPLETED,
  disputed: ExperimentStatus.DISPUTED,
};

/**
 * The experiments event announcing `event` for the fixture (its version bumped), carrying
 * the whole experiment as the experiments service records it.
 */
export function experimentEvent(
  fixture: ExperimentFixture,
  event: WebhookEventName,
  at = START,
): EventEnvelope {
  fixture.version += 1;
  const request = {
    experiment_type: "QPCR_EXPRESSION",
    title: "Expression of GENE1",
    communication_preferences: {
      ...(fixture.webhookUrl ? { webhook_url: fixture.webhookUrl } : {}),
      ...(fixture.notificationEvents ? { notification_events: fixture.notificationEvents } : {}),
    },
  };
  const stamp = timestampFromDate(at);
  const whole: MessageInitShape<typeof ExperimentSchema> = {
    id: fixture.id,
    requesterAccountId: fixture.requesterAccountId,
    status: STATUS_AFTER[event],
    experimentType: "QPCR_EXPRESSION",
    title: "Expression of GENE1",
    requestJson: JSON.stringify(request),
    version: BigInt(fixture.version),
    operator: {
      operatorId: "op_1",
      labName: "Lab One",
      claimedAt: stamp,
      deadline: stamp,
      operatorAccountId: "usr_lab",
    },
    startedAt: stamp,
    resultsSubmittedAt: stamp,
    completedAt: stamp,
    approval: { rating: 5, approvedAt: stamp },
  };
  const meta = { aggregateId: fixture.id, aggregateVersion: fixture.version, occurredAt: at };
  switch (event) {
    case "claimed":
      return buildEnvelope(events.experiments.experimentClaimed, { experiment: whole }, meta);
    case "started":
      return buildEnvelope(events.experiments.experimentStarted, { experiment: whole }, meta);
    case "issue":
      return buildEnvelope(
        events.experiments.issueReported,
        {
          experiment: whole,
          issue: {
            id: newId("iss"),
            description: "Plate reader offline",
            severity: "high",
            reportedAt: stamp,
          },
        },
        meta,
      );
    case "completed":
      return buildEnvelope(events.experiments.resultsSubmitted, { experiment: whole, fileCount: 3 }, meta);
    case "approved":
      return buildEnvelope(
        events.experiments.resultsApproved,
        { experiment: whole, rating: 5, onTime: true },
        meta,
      );
    case "disputed":
      return buildEnvelope(
        events.experiments.experimentDisputed,
        {
          experiment: whole,
          dispute: {
            id: newId("dsp"),
            reason: "results_incomplete",
            raisedFrom: "pending_approval",
            createdAt: stamp,
          },
        },
        meta,
      );
  }
}

/** The ConnectError a call failed with (fails the test when it succeeded). */
export { callRejection as rejection } from "@petri/service-testkit";
