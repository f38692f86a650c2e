import { runClusterService } from "@petri/events";
import { createIdentityService } from "./service.js";

await runClusterService({ service: "identity", defaultPort: 7101, create: createIdentityService });
