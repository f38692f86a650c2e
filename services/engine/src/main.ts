import { runClusterService } from "@petri/events";
import { createEngineService } from "./service.js";

await runClusterService({ service: "engine", defaultPort: 7105, create: createEngineService });
