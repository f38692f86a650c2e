/**
 * Integration harness: the hypotheses service on a real database (PostgreSQL or PGlite),
 * reached through a Connect router transport with the production server interceptors (trace,
 * errors, internal principal token), so every call crosses the contract and the authorization
 * checks.
 */
import type { Client } from "@connectrpc/connect";
import { HypothesesService } from "@petri/contracts/hypotheses";
import type { Database } from "@petri/db";
import type { EventBus } from "@petri/events";
import type { Principal } from "@petri/service-kit";
import type { Engine, TestBackend } from "@petri/service-testkit";
import { routerClients, serviceOfBlock, serviceTestBed, startServiceForTest } from "@petri/service-testkit";
import type { FakeClock } from "@petri/testkit";
import type { Kysely } from "kysely";
import type { HypothesesDb } from "../../src/db/schema.js";
import { type HypothesesHostedService, createHypothesesService } from "../../src/service.js";

export type { Engine };

const bed = await serviceTestBed("hypotheses");
export const { engines: ENGINES, logger, backend: Backend } = bed;
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
  serviceOfBlock(
    () => Backend.open(engine),
    (backend) => startHypotheses(backend.database, options),
    started,
  );
}

export { testRequester as requester } from "@petri/service-testkit";
export { testStaff as staff } from "@petri/service-testkit";

/** Code, reason and details of a failed call, for compact assertions. */
export { callFailure as failure } from "@petri/service-testkit";
