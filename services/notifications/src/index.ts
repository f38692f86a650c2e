export { createNotificationsService } from "./service.js";
