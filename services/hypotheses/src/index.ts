export { createHypothesesService } from "./service.js";
