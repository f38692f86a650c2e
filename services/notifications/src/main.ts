import { runClusterService } from "@petri/events";
import { createNotificationsService } from "./service.js";

await runClusterService({ service: "notifications", defaultPort: 7107, create: createNotificationsService });
