import { runClusterService } from "@petri/events";
import { createExperimentsService } from "./service.js";

await runClusterService({ service: "experiments", defaultPort: 7102, create: createExperimentsService });
