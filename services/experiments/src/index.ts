export {
  createExperimentsService,
  type ExperimentsHostedService,
  type ExperimentsServiceOptions,
} from "./service.js";
