import { runClusterService } from "@petri/host";
import { createMarketplaceService } from "./service.js";

await runClusterService({ service: "marketplace", defaultPort: 7103, create: createMarketplaceService });
