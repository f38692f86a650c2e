import { runClusterService } from "@petri/host";
import { exitOnConfigError, loadConfig } from "@petri/service-kit";
import {
  NOTIFICATIONS_DEFAULT_PORT,
  notificationsConfigSchema,
  notificationsOptionsFromConfig,
} from "./config.js";
import { createNotificationsService } from "./service.js";

// Fails fast, naming every bad variable (never a secret's value), before any connection.
const config = exitOnConfigError(() => loadConfig(notificationsConfigSchema()));
const options = notificationsOptionsFromConfig(config);

await runClusterService({
  service: "notifications",
  defaultPort: NOTIFICATIONS_DEFAULT_PORT,
  create: (deps) => createNotificationsService(deps, options),
});
