/**
 * Integration harness: the hypotheses service on a real database (PostgreSQL or PGlite),
 * reached through a Connect router transport with the production server interceptors (trace,
 * errors, internal principal token), so every call crosses the contract and the authorization
 * checks.
 */
import { randomBytes } from "node:crypto";
import type { Client } from "@connectrpc/connect";
import { HypothesesService } from "@petri/contracts/hypotheses";
import type { Database } from "@petri/db";
import type { EventBus } from "@petri/events";
import { type Principal, createLogger } from "@petri/service-kit";
import {
  type Engine,
  TestBackend,
  callFailure,
  routerClients,
  startServiceForTest,
  testEngines,
} from "@petri/service-testkit";
import type { FakeClock } from "@petri/testkit";
import type { Kysely } from "kysely";
import { afterAll, beforeAll } from "vitest";
import type { HypothesesDb } from "../../src/db/schema.js";
import { type HypothesesHostedService, createHypothesesService } from "../../src/service.js";

export type { Engine };

/** Every scenario runs on both engines (PostgreSQL only when it is reachable, or CI fails). */
export const ENGINES: Engine[] = await testEngines();

const logger = createLogger({ service: "hypotheses-test", level: "silent" });

export const Backend = { open: (engine: Engine) => TestBackend.open(engine, "petri_hypotheses") };
export type Backend = TestBackend;

export const START = new Date("2026-12-15T09:00:00.000Z");

export interface Hypotheses {
  service: HypothesesHostedService;
  db: Kysely<HypothesesDb>;
  clock: FakeClock;
  /** A client calling as `principal` (none: anonymous). */
  as(principal?: Principal): Client<typeof HypothesesService>;
  /** The bus the service consumes from (publish experiments' events on it). */
  bus: EventBus;
  stop(): Promise<void>;
}

/** Creates, migrates and starts the hypotheses service on `database`. */
export async function startHypotheses(
  database: Database,
  options: Parameters<typeof createHypothesesService>[1] = {},
): Promise<Hypotheses> {
  const { service, clock, bus, stop } = await startServiceForTest(database, START, logger, (deps) =>
    createHypothesesService(deps, options),
  );
  const as = await routerClients(HypothesesService, (router) => service.routes(router), logger);
  return { service, db: database.forSchema<HypothesesDb>("hypotheses"), clock, as, bus, stop };
}

/**
 * For the tests of the enclosing describe block: a database of its own on `engine` with the
 * hypotheses service on it (`options` as startHypotheses takes them), started before the
 * block's tests and stopped after them; `started` gets the running service (awaited).
 */
export function hypothesesOfBlock(
  engine: Engine,
  started: (hypotheses: Hypotheses) => unknown,
  options: Parameters<typeof startHypotheses>[1] = {},
): void {
  let backend: Backend | undefined;
  let hypotheses: Hypotheses | undefined;
  beforeAll(async () => {
    backend = await Backend.open(engine);
    hypotheses = await startHypotheses(backend.database, options);
    await started(hypotheses);
  });
  afterAll(async () => {
    await hypotheses?.stop();
    await backend?.close();
  });
}

let counter = 0;
function account(label: string): string {
  counter += 1;
  return `usr_${label}${counter}${randomBytes(4).toString("hex")}`;
}

export function requester(label = "req"): Principal {
  return { accountId: account(label), role: "requester", tier: "standard" };
}

export function staff(label = "staff"): Principal {
  return { accountId: account(label), role: "staff", tier: "standard" };
}

/** Code, reason and details of a failed call, for compact assertions. */
export const failure = callFailure;
