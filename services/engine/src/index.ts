export { createEngineService, type EngineHostedService, type EngineServiceOptions } from "./service.js";
export { engineOptionsFromEnv } from "./options.js";
