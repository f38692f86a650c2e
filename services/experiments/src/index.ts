export {
  createExperimentsService,
  type ExperimentsHostedService,
  type ExperimentsServiceOptions,
} from "./service.js";
export type { WebhookUrlCheckOptions } from "./app/webhook-registration.js";
