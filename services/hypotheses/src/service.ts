import { HypothesesService } from "@petri/contracts/hypotheses";
import { type ServiceDeps, createServiceRuntime } from "@petri/events";
import type { HostedService } from "@petri/service-kit";
import { hypothesesMigrations } from "./db/migrations/index.js";
import type { HypothesesDb } from "./db/schema.js";

/** Composition root of the hypotheses service: the hypothesis library. */
export function createHypothesesService(deps: ServiceDeps): HostedService {
  const runtime = createServiceRuntime<HypothesesDb>({
    ...deps,
    service: "hypotheses",
    migrations: hypothesesMigrations,
  });
  return {
    ...runtime.hosted,
    routes: (router) => router.service(HypothesesService, {}),
  };
}
