import { ExperimentsService } from "@petri/contracts/experiments";
import { type ServiceDeps, createServiceRuntime } from "@petri/events";
import type { HostedService } from "@petri/service-kit";
import { experimentsMigrations } from "./db/migrations/index.js";
import type { ExperimentsDb } from "./db/schema.js";

/** Composition root of the experiments service: the Experiment aggregate: requests, lifecycle, results, disputes, validation, estimates, templates. */
export function createExperimentsService(deps: ServiceDeps): HostedService {
  const runtime = createServiceRuntime<ExperimentsDb>({
    ...deps,
    service: "experiments",
    migrations: experimentsMigrations,
  });
  return {
    ...runtime.hosted,
    routes: (router) => router.service(ExperimentsService, {}),
  };
}
