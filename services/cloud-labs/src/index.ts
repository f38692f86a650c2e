export {
  createCloudLabsService,
  type CloudLabsHostedService,
  type CloudLabsServiceOptions,
} from "./service.js";
export { cloudLabsOptionsFromEnv } from "./options.js";
