import { runClusterService } from "@petri/host";
import { exitOnConfigError } from "@petri/service-kit";
import { engineOptionsFromEnv } from "./options.js";
import { createEngineService } from "./service.js";

// Fails fast, naming every bad variable (never a key's value), before any connection.
const options = exitOnConfigError(() => engineOptionsFromEnv());

await runClusterService({
  service: "engine",
  defaultPort: 7105,
  create: (deps) => createEngineService(deps, options),
});
