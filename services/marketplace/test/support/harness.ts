/**
 * Integration harness: the marketplace service on a real database (PostgreSQL or PGlite), its
 * consumers and outbox relay on the in-process bus, reached through a Connect router transport
 * with the production server interceptors (trace, errors, internal principal token), so every
 * call crosses the contract and the authorization checks. The experiments service is played
 * by `ExperimentStory`, which publishes its events (whole experiment, aggregate version) on
 * the bus exactly as its outbox relay would.
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { Client } from "@connectrpc/connect";
import { type EventSpec, events } from "@petri/contracts";
import type { EventEnvelope } from "@petri/contracts/common";
import {
  type DisputeSchema,
  type ExperimentSchema,
  ExperimentStatus,
  type JobRequirements,
} from "@petri/contracts/experiments";
import { MarketplaceService } from "@petri/contracts/marketplace";
import type { Database } from "@petri/db";
import { BUS_SCHEMA, InProcessEventBus, buildEnvelope } from "@petri/events";
import { type Principal, failpoints, newId } from "@petri/service-kit";
import type { Engine, TestBackend } from "@petri/service-testkit";
import {
  routerClients,
  serviceOfBlock,
  serviceTestBed,
  testPrincipal,
  testStaff,
} from "@petri/service-testkit";
import { FakeClock } from "@petri/testkit";
import type { Kysely } from "kysely";
import type { MarketplaceDb } from "../../src/db/schema.js";
import { SandboxPaymentProvider } from "../../src/domain/ledger/payment-provider.js";
import { profileInput, verification } from "./operators.js";
import { type MarketplaceHostedService, createMarketplaceService } from "../../src/service.js";

export type { Engine };

const bed = await serviceTestBed("marketplace");
export const { engines: ENGINES, logger, backend: Backend } = bed;
export type Backend = TestBackend;

/** Outside the fixture profile's vacation (Dec 24 - Jan 2). */
export const START = new Date("2026-11-21T12:00:00.000Z");

export const CONSUMERS = ["marketplace-jobs", "marketplace-ledger"] as const;

export interface Marketplace {
  service: MarketplaceHostedService;
  db: Kysely<MarketplaceDb>;
  clock: FakeClock;
  bus: InProcessEventBus;
  provider: SandboxPaymentProvider;
  /** A client calling as `principal` (none: anonymous). */
  as(principal?: Principal): Client<typeof MarketplaceService>;
  /** Publishes envelopes (as the experiments relay would) and waits until both consumers settled them. */
  deliver(...envelopes: EventEnvelope[]): Promise<void>;
  /** Publishes envelopes without waiting. */
  publish(...envelopes: EventEnvelope[]): Promise<void>;
  /** Waits until both consumers applied or dead-lettered each envelope (moving the clock for retries). */
  settled(...envelopes: EventEnvelope[]): Promise<void>;
  stop(): Promise<void>;
}

/** Creates, migrates and starts one marketplace replica on `database`. */
export async function startMarketplace(database: Database): Promise<Marketplace> {
  const clock = new FakeClock(START);
  const bus = await InProcessEventBus.create({ db: database, clock, logger });
  const provider = new SandboxPaymentProvider();
  const service = createMarketplaceService({
    database,
    bus,
    clock,
    logger,
    failpoints,
    paymentProvider: provider,
  });
  await service.migrate();
  await service.start();
  const db = database.forSchema<MarketplaceDb>("marketplace");
  const as = await routerClients(MarketplaceService, (router) => service.routes(router), logger);

  const busDb = database.forSchema<any>(BUS_SCHEMA);

  /**
   * Waits until every consumer has settled each envelope on the bus: acknowledged (applied,
   * or skipped without an inbox row when it has no handler for the type) or terminated
   * (dead-lettered). A failing event is redelivered after a backoff on the fake clock, so
   * time moves on by a second per round while something is still outstanding.
   */
  async function settled(ids: string[]): Promise<void> {
    for (let round = 0; round < 600; round += 1) {
      const rows: { durable: string; msg_id: string }[] = await busDb
        .selectFrom("messages as m")
        .innerJoin("consumers as c", "c.stream", "m.stream")
        .select(["c.durable", "m.msg_id"])
        .where("m.msg_id", "in", ids)
        .where("c.durable", "in", [...CONSUMERS])
        .whereRef("m.seq", "<=", "c.cursor")
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom("deliveries as d")
                .select("d.seq")
                .whereRef("d.stream", "=", "m.stream")
                .whereRef("d.durable", "=", "c.durable")
                .whereRef("d.seq", "=", "m.seq")
                .where("d.state", "=", "pending"),
            ),
          ),
        )
        .execute();
      const done = new Set(rows.map((row) => `${row.durable}/${row.msg_id}`));
      if (CONSUMERS.every((consumer) => ids.every((id) => done.has(`${consumer}/${id}`)))) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
      if (round % 3 === 2) await clock.advance(1_000);
    }
    throw new Error(`events ${ids.join(", ")} were never settled`);
  }

  let stopped = false;
  return {
    service,
    db,
    clock,
    bus,
    provider,
    as,
    async deliver(...envelopes) {
      for (const envelope of envelopes) await bus.publish(envelope);
      await settled(envelopes.map((envelope) => envelope.id));
    },
    async publish(...envelopes) {
      for (const envelope of envelopes) await bus.publish(envelope);
    },
    settled: (...envelopes) => settled(envelopes.map((envelope) => envelope.id)),
    async stop() {
      if (stopped) return;
      stopped = true;
      await service.stop();
      await bus.close();
    },
  };
}

/**
 * Opens a database on `engine` and starts a replica on it before the tests of the describe
 * block this is called in, and stops both after them (after the block's own afterAll hooks,
 * when called first). The object is filled in by then: use it in tests and hooks, not while
 * declaring them.
 */
export function marketplaceOn(engine: Engine): Marketplace {
  const block: Partial<Marketplace> = {};
  serviceOfBlock(
    () => Backend.open(engine),
    (backend) => startMarketplace(backend.database),
    (marketplace) => Object.assign(block, marketplace),
  );
  return block as Marketplace;
}

export { testRequester as requester } from "@petri/service-testkit";
export const staff = testStaff;

/** The fixture lab profile (QPCR and MIC, BSL-2, human samples and hazardous chemicals), with changes. */
export function labProfile(change: (profile: Record<string, any>) => void = () => undefined): string {
  const profile = profileInput() as Record<string, any>;
  change(profile);
  return JSON.stringify(profile);
}

/** A complete verification record of everything the fixture profile declares. */
export function fullVerification(change: (record: Record<string, any>) => void = () => undefined): string {
  const record: Record<string, any> = verification({ last_verification_date: "2026-11-01" });
  change(record);
  return JSON.stringify(record);
}

/** An account with an active (verified) lab: submits the profile, staff verify it. */
export async function activeOperator(
  marketplace: Marketplace,
  options: { profile?: string; verification?: string; label?: string } = {},
): Promise<{ principal: Principal; operatorId: string }> {
  const principal = testPrincipal("operator", options.label ?? "lab");
  const { operator } = await marketplace
    .as(principal)
    .submitOperatorProfile({ profileJson: options.profile ?? labProfile() });
  await marketplace.as(staff()).verifyOperator({
    operatorId: operator!.id,
    verificationJson: options.verification ?? fullVerification(),
  });
  return { principal: { ...principal, operatorId: operator!.id }, operatorId: operator!.id };
}

type ExperimentInit = MessageInitShape<typeof ExperimentSchema>;
type JobInit = Partial<Omit<JobRequirements, "$typeName" | "$unknown">>;
type DisputeInit = MessageInitShape<typeof DisputeSchema>;

/**
 * One experiment's life as the experiments service announces it: each step bumps the
 * aggregate version and returns the envelopes it records (not yet published), carrying the
 * whole experiment after the change.
 */
export class ExperimentStory {
  readonly id = newId("exp");
  version = 0;
  status: ExperimentStatus = ExperimentStatus.DRAFT;
  hold: number;
  readonly title: string;
  operatorId = "";
  dispute: DisputeInit | undefined;
  job: JobInit;

  constructor(
    readonly requesterAccountId: string,
    options: { hold?: number; title?: string; job?: JobInit } = {},
    private readonly clock: { now(): Date } = { now: () => START },
  ) {
    this.hold = options.hold ?? 50_000;
    this.title = options.title ?? "Expression of GENE1 after drug X";
    this.job = {
      experimentType: "QPCR_EXPRESSION",
      bslLevel: "BSL-1",
      budgetCents: 100_000n,
      priority: "standard",
      desiredTurnaroundDays: 14,
      category: "molecular_biology",
      privacy: "open",
      ...options.job,
    };
  }

  experiment(): ExperimentInit {
    return {
      id: this.id,
      requesterAccountId: this.requesterAccountId,
      status: this.status,
      experimentType: String(this.job.experimentType),
      title: this.title,
      version: BigInt(this.version),
      holdAmountCents: BigInt(this.hold),
      job: this.job,
      ...(this.operatorId === ""
        ? {}
        : { operator: { operatorId: this.operatorId, labName: "Lab", operatorAccountId: "usr_lab" } }),
      ...(this.dispute ? { dispute: this.dispute } : {}),
    };
  }

  private envelope<S extends EventSpec>(spec: S, payload: Record<string, unknown>): EventEnvelope {
    return buildEnvelope(spec, { experiment: this.experiment(), ...payload } as never, {
      aggregateId: this.id,
      aggregateVersion: this.version,
      occurredAt: this.clock.now(),
    });
  }

  /** Submitted straight to open: ExperimentSubmitted and ExperimentOpened share the version. */
  submit(status: ExperimentStatus = ExperimentStatus.OPEN): EventEnvelope[] {
    this.version += 1;
    this.status = status;
    const submitted = this.envelope(events.experiments.experimentSubmitted, {
      holdAmountCents: BigInt(this.hold),
    });
    return status === ExperimentStatus.OPEN
      ? [submitted, this.envelope(events.experiments.experimentOpened, {})]
      : [submitted];
  }

  open(): EventEnvelope[] {
    this.version += 1;
    this.status = ExperimentStatus.OPEN;
    return [this.envelope(events.experiments.experimentOpened, {})];
  }

  update(hold: number, job: JobInit = {}): EventEnvelope[] {
    this.version += 1;
    this.hold = hold;
    this.job = { ...this.job, ...job };
    return [this.envelope(events.experiments.experimentUpdated, { holdAmountCents: BigInt(hold) })];
  }

  claim(operatorId: string): EventEnvelope[] {
    this.version += 1;
    this.status = ExperimentStatus.CLAIMED;
    this.operatorId = operatorId;
    return [this.envelope(events.experiments.experimentClaimed, {})];
  }

  start(): EventEnvelope[] {
    this.version += 1;
    this.status = ExperimentStatus.IN_PROGRESS;
    return [this.envelope(events.experiments.experimentStarted, {})];
  }

  reportIssue(): EventEnvelope[] {
    this.version += 1;
    return [
      this.envelope(events.experiments.issueReported, {
        issue: { id: newId("iss"), description: "incubator drift", severity: "low" },
      }),
    ];
  }

  submitResults(): EventEnvelope[] {
    this.version += 1;
    this.status = ExperimentStatus.PENDING_APPROVAL;
    return [this.envelope(events.experiments.resultsSubmitted, { fileCount: 2 })];
  }

  approve(options: { rating?: number; onTime?: boolean } = {}): EventEnvelope[] {
    this.version += 1;
    this.status = ExperimentStatus.COMPLETED;
    return [
      this.envelope(events.experiments.resultsApproved, {
        rating: options.rating ?? 0,
        onTime: options.onTime ?? true,
      }),
    ];
  }

  raiseDispute(): EventEnvelope[] {
    const raisedFrom = this.status === ExperimentStatus.COMPLETED ? "completed" : "pending_approval";
    this.version += 1;
    this.status = ExperimentStatus.DISPUTED;
    this.dispute = {
      id: newId("dsp"),
      experimentId: this.id,
      reason: "results_incomplete",
      status: "open",
      raisedFrom,
      requesterAccountId: this.requesterAccountId,
      operatorId: this.operatorId,
    };
    return [this.envelope(events.experiments.experimentDisputed, { dispute: this.dispute })];
  }

  resolve(
    outcome: "requester" | "operator" | "split",
    requesterCents: number,
    operatorCents: number,
  ): EventEnvelope[] {
    this.version += 1;
    this.status = ExperimentStatus.RESOLVED;
    this.dispute = {
      ...this.dispute,
      status: "resolved",
      outcome,
      requesterAmountCents: BigInt(requesterCents),
      operatorAmountCents: BigInt(operatorCents),
    };
    return [this.envelope(events.experiments.disputeResolved, { dispute: this.dispute })];
  }

  cancel(refundCents: number, compensationCents: number): EventEnvelope[] {
    this.version += 1;
    this.status = ExperimentStatus.CANCELLED;
    return [
      this.envelope(events.experiments.experimentCancelled, {
        refundAmountCents: BigInt(refundCents),
        operatorCompensationCents: BigInt(compensationCents),
      }),
    ];
  }
}

/** The same event published again under a new id (a re-publish beyond the bus's dedupe window). */
export function republished(envelope: EventEnvelope): EventEnvelope {
  return { ...envelope, id: newId("evt") };
}

/** The events recorded in the marketplace outbox for one aggregate, decoded, in order. */
export { outboxEvents } from "@petri/service-testkit";

/** Code, reason and details of a failed call, for compact assertions. */
export { callFailure as failure } from "@petri/service-testkit";
