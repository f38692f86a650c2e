export { createExperimentsService, type ExperimentsHostedService } from "./service.js";
