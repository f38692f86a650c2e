export { createEngineService, type EngineHostedService, type EngineServiceOptions } from "./service.js";
export { engineOptionsFromEnv } from "./options.js";
// The schema history, for checks across services (expand-only steps between releases).
export { engineMigrations } from "./db/migrations/index.js";
