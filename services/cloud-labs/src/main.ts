import { runClusterService } from "@petri/host";
import { exitOnConfigError } from "@petri/service-kit";
import { cloudLabsOptionsFromEnv } from "./options.js";
import { createCloudLabsService } from "./service.js";

// Fails fast, naming every bad variable (never a key's value), before any connection.
const options = exitOnConfigError(() => cloudLabsOptionsFromEnv());

await runClusterService({
  service: "cloudlabs",
  defaultPort: 7106,
  create: (deps) => createCloudLabsService(deps, options),
});
