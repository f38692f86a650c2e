import { runClusterService } from "@petri/events";
import { createCloudLabsService } from "./service.js";

await runClusterService({ service: "cloudlabs", defaultPort: 7106, create: createCloudLabsService });
