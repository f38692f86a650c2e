export {
  createExperimentsService,
  type ExperimentsHostedService,
  type ExperimentsServiceOptions,
} from "./service.js";
export type { WebhookUrlCheckOptions } from "./app/webhook-registration.js";
// The schema history, for checks across services (expand-only steps between releases).
export { experimentsMigrations } from "./db/migrations/index.js";
// The blob store's settings, for the deployment checks (deploy/k8s) that every overlay provides them.
export { blobStoreConfigSchema } from "./blobs/index.js";
