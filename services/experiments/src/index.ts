export {
  createExperimentsService,
  type ExperimentsHostedService,
  type ExperimentsServiceOptions,
} from "./service.js";
export type { WebhookUrlCheckOptions } from "./app/webhook-registration.js";
// The schema history, for checks across services (expand-only steps between releases).
export { experimentsMigrations } from "./db/migrations/index.js";
