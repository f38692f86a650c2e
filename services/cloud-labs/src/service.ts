import { CloudLabsService } from "@petri/contracts/cloudlabs";
import { type ServiceDeps, createServiceRuntime } from "@petri/events";
import type { HostedService } from "@petri/service-kit";
import { cloudLabsMigrations } from "./db/migrations/index.js";
import type { CloudLabsDb } from "./db/schema.js";

/** Composition root of the cloudlabs service: providers, interpretation, protocol translation, validation and submissions. */
export function createCloudLabsService(deps: ServiceDeps): HostedService {
  const runtime = createServiceRuntime<CloudLabsDb>({
    ...deps,
    service: "cloudlabs",
    migrations: cloudLabsMigrations,
  });
  return {
    ...runtime.hosted,
    routes: (router) => router.service(CloudLabsService, {}),
  };
}
