export {
  createCloudLabsService,
  type CloudLabsHostedService,
  type CloudLabsServiceOptions,
} from "./service.js";
export { cloudLabsOptionsFromEnv } from "./options.js";
// The schema history, for checks across services (expand-only steps between releases).
export { cloudLabsMigrations } from "./db/migrations/index.js";
