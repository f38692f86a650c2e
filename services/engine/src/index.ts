export { createEngineService } from "./service.js";
