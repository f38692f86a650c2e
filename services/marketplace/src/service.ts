import { MarketplaceService } from "@petri/contracts/marketplace";
import { type ServiceDeps, createServiceRuntime } from "@petri/events";
import type { HostedService } from "@petri/service-kit";
import { marketplaceMigrations } from "./db/migrations/index.js";
import type { MarketplaceDb } from "./db/schema.js";

/** Composition root of the marketplace service: operators, the job feed, claim eligibility, lab matching, escrow ledger and payouts. */
export function createMarketplaceService(deps: ServiceDeps): HostedService {
  const runtime = createServiceRuntime<MarketplaceDb>({
    ...deps,
    service: "marketplace",
    migrations: marketplaceMigrations,
  });
  return {
    ...runtime.hosted,
    routes: (router) => router.service(MarketplaceService, {}),
  };
}
