import { runClusterService } from "@petri/host";
import { exitOnConfigError, loadConfig } from "@petri/service-kit";
import { IDENTITY_DEFAULT_PORT, identityConfigSchema, identityOptionsFromConfig } from "./config.js";
import { createIdentityService } from "./service.js";

// Fails fast, naming every bad variable (never a secret's value), before any connection.
const config = exitOnConfigError(() => loadConfig(identityConfigSchema()));
const options = identityOptionsFromConfig(config);

await runClusterService({
  service: "identity",
  defaultPort: IDENTITY_DEFAULT_PORT,
  create: (deps) => createIdentityService(deps, options),
});
