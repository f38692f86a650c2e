export { createHypothesesService, type HypothesesHostedService } from "./service.js";
// The schema history, for checks across services (expand-only steps between releases).
export { hypothesesMigrations } from "./db/migrations/index.js";
