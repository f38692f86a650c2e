/**
 * Integration harness: the experiments service on a real database (PostgreSQL or PGlite), its
 * outbox relay on the in-process bus, reached through a Connect router transport with the
 * same server interceptors as production (trace, errors, internal principal token), so every
 * call crosses the contract and the authorization checks. Each call carries a principal
 * token minted for the principal the test names.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client } from "@connectrpc/connect";
import { ExperimentsService } from "@petri/contracts/experiments";
import { type Database } from "@petri/db";
import { type EventBus, InProcessEventBus } from "@petri/events";
import {
  AddressAllowlist,
  type Principal,
  type ReadModelWait,
  type ResolvedAddress,
  type Resolver,
  errorDetailOf,
  errorDetailsObject,
  failpoints,
} from "@petri/service-kit";
import type { Engine, TestBackend } from "@petri/service-testkit";
import { callRejection, routerClients, serviceOfBlock, serviceTestBed } from "@petri/service-testkit";
import { FakeClock } from "@petri/testkit";
import type { Kysely } from "kysely";
import type { BlobStore } from "../../src/blobs/index.js";
import type { ExperimentsDb } from "../../src/db/schema.js";
import { FIXTURE_NOW, specialRequests, validRequests } from "@petri/fixtures";
import { type ExperimentsHostedService, createExperimentsService } from "../../src/service.js";

export type { Engine };

const bed = await serviceTestBed("experiments");
export const { engines: ENGINES, logger, system: SYSTEM, backend: Backend } = bed;
export type Backend = TestBackend;

/**
 * What the fake DNS answers (tests NEVER do real DNS): hostname -> addresses. Any other name
 * does not resolve (ENOTFOUND). Documentation-safe public addresses stand for "public".
 */
export const TEST_DNS: Readonly<Record<string, readonly string[]>> = {
  "hooks.example.org": ["93.184.215.14"],
  "dual.hooks.example": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
  "private.hooks.example": ["10.0.0.5"],
  "loopback.hooks.example": ["127.0.0.1"],
  "metadata.hooks.example": ["169.254.169.254"],
  "mapped.hooks.example": ["::ffff:127.0.0.1"],
  "mixed.hooks.example": ["93.184.215.14", "10.0.0.5"],
};

/** A resolver answering from TEST_DNS that records every name it was asked. */
export class FakeResolver {
  readonly lookups: string[] = [];
  readonly resolve: Resolver = async (hostname) => {
    this.lookups.push(hostname);
    const answers = TEST_DNS[hostname];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return answers.map((address): ResolvedAddress => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
}

export interface Experiments {
  service: ExperimentsHostedService;
  /** The fake DNS the service's webhook URL check resolves with. */
  resolver: FakeResolver;
  db: Kysely<ExperimentsDb>;
  clock: FakeClock;
  /** The in-process bus the service publishes to and consumes from. */
  bus: EventBus;
  /** The directory of the file-system blob store (a fresh temporary one, removed on stop). */
  blobDir: string;
  /** A client calling as `principal` (none: anonymous). */
  as(principal?: Principal): Client<typeof ExperimentsService>;
  stop(): Promise<void>;
}

/** How startExperiments sets up a replica; everything left out has a test default. */
export interface ExperimentsSetup {
  clock?: FakeClock;
  blobStore?: BlobStore;
  blobDir?: string;
  webhookAllowlist?: AddressAllowlist;
  hypothesisViewWait?: ReadModelWait;
}

/**
 * Creates, migrates and starts one experiments replica on `database`, with result files in a
 * fresh temporary directory (or in `setup.blobStore`, e.g. one that fails on purpose), and
 * webhook URLs resolved by a FakeResolver (TEST_DNS) with no allowlist unless
 * `setup.webhookAllowlist` says otherwise.
 */
export async function startExperiments(
  database: Database,
  setup: ExperimentsSetup = {},
): Promise<Experiments> {
  const clock = setup.clock ?? new FakeClock(FIXTURE_NOW);
  const bus = await InProcessEventBus.create({ db: database, clock, logger });
  const ownBlobDir = setup.blobDir === undefined;
  const blobDir = setup.blobDir ?? (await mkdtemp(path.join(tmpdir(), "petri-experiments-blobs-")));
  const resolver = new FakeResolver();
  const service = createExperimentsService(
    { database, bus, clock, logger, failpoints },
    {
      blobStore: setup.blobStore ?? { kind: "fs", dir: blobDir },
      webhookUrlCheck: {
        resolver: resolver.resolve,
        allowlist: setup.webhookAllowlist ?? AddressAllowlist.empty,
      },
      ...(setup.hypothesisViewWait ? { hypothesisViewWait: setup.hypothesisViewWait } : {}),
    },
  );
  await service.migrate();
  await service.start();
  const as = await routerClients(ExperimentsService, (router) => service.routes(router), logger, [
    ...(service.publicProcedures ?? []),
  ]);
  let stopped = false;
  return {
    service,
    resolver,
    db: database.forSchema<ExperimentsDb>("experiments"),
    clock,
    bus,
    blobDir,
    as,
    async stop() {
      if (stopped) return;
      stopped = true;
      await service.stop();
      await bus.close();
      if (ownBlobDir) await rm(blobDir, { recursive: true, force: true });
    },
  };
}

/** The replica of one describe block, and the database it runs on (for more replicas on it). */
export interface BlockExperiments extends Experiments {
  backend: Backend;
}

/**
 * Opens a database on `engine` and starts a replica on it before the tests of the describe
 * block this is called in, and stops both after them (after the block's own afterAll hooks,
 * when called first). The object is filled in by then: use it in tests and hooks, not while
 * declaring them.
 */
export function experimentsOn(engine: Engine, setup: ExperimentsSetup = {}): BlockExperiments {
  const block: Partial<BlockExperiments> = {};
  serviceOfBlock(
    () => Backend.open(engine),
    (backend) => startExperiments(backend.database, setup),
    (experiments, backend) => Object.assign(block, experiments, { backend }),
  );
  return block as BlockExperiments;
}

export { testRequester as requester } from "@petri/service-testkit";
export { testStaff as staff } from "@petri/service-testkit";

/** Request bodies (fresh copies) from the intake fixtures. */
export const bodies = {
  /** A minimal MIC request: valid, no review reason -> open. */
  open: () => structuredClone(validRequests.MIC_MBC_ASSAY) as Record<string, unknown>,
  /** CUSTOM with a custom protocol -> pending_review (custom_protocol). */
  custom: () => structuredClone(validRequests.CUSTOM) as Record<string, unknown>,
  /** CUSTOM with protocol_design_requested -> pending_review. */
  design: () => structuredClone(specialRequests.protocolDesign) as Record<string, unknown>,
  of: (type: keyof typeof validRequests) => structuredClone(validRequests[type]) as Record<string, unknown>,
};

export const json = (value: unknown) => JSON.stringify(value);

/** The events recorded in the outbox for one aggregate, decoded, in order. */
export { outboxEvents } from "@petri/service-testkit";

/** The ConnectError a call failed with (fails the test when it succeeded). */
export const rejection = callRejection;

/** Code, reason and details of a failed call, for compact assertions. */
export async function failure(promise: Promise<unknown>) {
  const error = await rejection(promise);
  const detail = errorDetailOf(error);
  return {
    code: error.code,
    reason: detail?.reason ?? "",
    details: errorDetailsObject(detail),
    violations:
      detail?.fieldViolations.map((v) => ({ field: v.field, code: v.code, message: v.message })) ?? [],
    message: error.rawMessage,
  };
}

/** Moves the fake clock in one step. */
export async function jump(experiments: Experiments, ms: number): Promise<void> {
  await experiments.clock.set(experiments.clock.now().getTime() + ms);
}
