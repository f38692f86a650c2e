import { createRouter } from "../../lib/create-app.js";
import { getHealthHandler } from "./health.handlers.js";
import { getHealth } from "./health.routes.js";

export const healthRouter = createRouter().openapi(getHealth, getHealthHandler);
