import { runClusterService } from "@petri/host";
import { createHypothesesService } from "./service.js";

await runClusterService({ service: "hypotheses", defaultPort: 7104, create: createHypothesesService });
