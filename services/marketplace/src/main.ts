import { runClusterService } from "@petri/events";
import { createMarketplaceService } from "./service.js";

await runClusterService({ service: "marketplace", defaultPort: 7103, create: createMarketplaceService });
