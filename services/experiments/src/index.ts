export { createExperimentsService } from "./service.js";
