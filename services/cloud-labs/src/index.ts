export { createCloudLabsService } from "./service.js";
