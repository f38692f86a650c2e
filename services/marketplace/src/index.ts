export { createMarketplaceService } from "./service.js";
