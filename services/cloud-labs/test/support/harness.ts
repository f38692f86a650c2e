/**
 * Integration harness: the cloudlabs service on a real database (PostgreSQL or PGlite), reached
 * through a Connect router transport with the production server interceptors, with a
 * submission worker the test drives (step/drain) on a fake clock.
 */
import { create } from "@bufbuild/protobuf";
import type { Client } from "@connectrpc/connect";
import { type EventSpec, events } from "@petri/contracts";
import { CloudLabsService } from "@petri/contracts/cloudlabs";
import { type Experiment, ExperimentSchema, ExperimentStatus } from "@petri/contracts/experiments";
import type { Database } from "@petri/db";
import { type EventBus, buildEnvelope } from "@petri/events";
import { type Principal, newId } from "@petri/service-kit";
import type { Engine, TestBackend } from "@petri/service-testkit";
import { routerClients, serviceTestBed, startServiceForTest } from "@petri/service-testkit";
import type { FakeClock } from "@petri/testkit";
import type { Kysely } from "kysely";
import type { CloudLabsSettings } from "../../src/config.js";
import { findExperimentView } from "@petri/events";
import type { CloudLabsDb } from "../../src/db/schema.js";
import { type CloudLabsHostedService, createCloudLabsService } from "../../src/service.js";

export type { Engine };

const bed = await serviceTestBed("cloudlabs");
export const { engines: ENGINES, logger, backend: Backend } = bed;
export type Backend = TestBackend;
export const START = new Date("2026-12-17T09:00:00.000Z");
export { callFailure as failure } from "@petri/service-testkit";

export interface CloudLabs {
  service: CloudLabsHostedService;
  db: Kysely<CloudLabsDb>;
  clock: FakeClock;
  as(principal?: Principal): Client<typeof CloudLabsService>;
  /** The bus the service consumes from (publish experiments' events on it). */
  bus: EventBus;
  /**
   * Publishes the event that announces `experiment` as it is (ExperimentDrafted for a draft, else
   * ExperimentSubmitted) and waits until the service's view holds that version.
   */
  know(experiment: Experiment): Promise<void>;
  stop(): Promise<void>;
}

export async function startCloudLabs(
  database: Database,
  settings: CloudLabsSettings = { sandboxStepMs: 60_000, pollIntervalMs: 10_000 },
  experimentViewWait = { timeoutMs: 2_000, pollMs: 100 },
): Promise<CloudLabs> {
  const { service, clock, bus, stop } = await startServiceForTest(database, START, logger, (deps) =>
    createCloudLabsService(deps, { settings, runInBackground: false, experimentViewWait }),
  );
  const as = await routerClients(CloudLabsService, (router) => service.routes(router), logger);
  const db = database.forSchema<CloudLabsDb>("cloudlabs");
  /** Publishes what the experiments service records for `experiment` (D344: an open submission with its Opened). */
  async function know(experiment: Experiment) {
    const specs: EventSpec[] =
      experiment.status === ExperimentStatus.DRAFT
        ? [events.experiments.experimentDrafted]
        : experiment.status === ExperimentStatus.OPEN
          ? [events.experiments.experimentSubmitted, events.experiments.experimentOpened]
          : [events.experiments.experimentSubmitted];
    const meta = {
      aggregateId: experiment.id,
      aggregateVersion: Number(experiment.version),
      occurredAt: clock.now(),
    };
    for (const spec of specs) await bus.publish(buildEnvelope(spec, { experiment } as never, meta));
    for (let round = 0; round < 500; round += 1) {
      if ((await findExperimentView(db, experiment.id))?.version === Number(experiment.version)) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`the event of experiment ${experiment.id} was never applied`);
  }
  return { service, db, clock, as, bus, know, stop };
}

export { testRequester as requester } from "@petri/service-testkit";
export { testStaff as staff } from "@petri/service-testkit";

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
    version: 1n,
  });
}
