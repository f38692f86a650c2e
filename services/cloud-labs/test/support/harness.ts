/**
 * Integration harness: the cloudlabs service on a real database (PostgreSQL or PGlite), reached
 * through a Connect router transport with the production server interceptors, with a
 * submission worker the test drives (step/drain) on a fake clock.
 */
import { randomBytes } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import type { Client } from "@connectrpc/connect";
import { CloudLabsService } from "@petri/contracts/cloudlabs";
import { type Experiment, ExperimentSchema, ExperimentStatus } from "@petri/contracts/experiments";
import type { Database } from "@petri/db";
import { type Principal, createLogger, newId } from "@petri/service-kit";
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
import type { CloudLabsSettings } from "../../src/config.js";
import type { CloudLabsDb } from "../../src/db/schema.js";
import { type CloudLabsHostedService, createCloudLabsService } from "../../src/service.js";

export type { Engine };

export const ENGINES: Engine[] = await testEngines();
export const logger = createLogger({ service: "cloudlabs-test", level: "silent" });
export const Backend = { open: (engine: Engine) => TestBackend.open(engine, "petri_cloudlabs") };
export type Backend = TestBackend;
export const START = new Date("2026-12-17T09:00:00.000Z");
export const failure = callFailure;

export interface CloudLabs {
  service: CloudLabsHostedService;
  db: Kysely<CloudLabsDb>;
  clock: FakeClock;
  as(principal?: Principal): Client<typeof CloudLabsService>;
  stop(): Promise<void>;
}

export async function startCloudLabs(
  database: Database,
  settings: CloudLabsSettings = { sandboxStepMs: 60_000, pollIntervalMs: 10_000 },
): Promise<CloudLabs> {
  const { service, clock, stop } = await startServiceForTest(database, START, logger, (deps) =>
    createCloudLabsService(deps, { settings, runInBackground: false }),
  );
  const as = await routerClients(CloudLabsService, (router) => service.routes(router), logger);
  return { service, db: database.forSchema<CloudLabsDb>("cloudlabs"), clock, as, stop };
}

let counter = 0;
export function requester(label = "req"): Principal {
  counter += 1;
  return {
    accountId: `usr_${label}${counter}${randomBytes(4).toString("hex")}`,
    role: "requester",
    tier: "standard",
  };
}

/** An experiment as the experiments service would hand it to the gateway. */
export function storedExperiment(
  owner: Principal,
  request: object,
  status = ExperimentStatus.OPEN,
): Experiment {
  return create(ExperimentSchema, {
    id: newId("exp"),
    requesterAccountId: owner.accountId,
    status,
    requestJson: JSON.stringify(request),
  });
}
