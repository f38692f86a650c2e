export { createHypothesesService, type HypothesesHostedService } from "./service.js";
