import { EngineService } from "@petri/contracts/engine";
import { type ServiceDeps, createServiceRuntime } from "@petri/events";
import type { HostedService } from "@petri/service-kit";
import { engineMigrations } from "./db/migrations/index.js";
import type { EngineDb } from "./db/schema.js";

/** Composition root of the engine service: asynchronous hypothesis-generation runs. */
export function createEngineService(deps: ServiceDeps): HostedService {
  const runtime = createServiceRuntime<EngineDb>({
    ...deps,
    service: "engine",
    migrations: engineMigrations,
  });
  return {
    ...runtime.hosted,
    routes: (router) => router.service(EngineService, {}),
  };
}
