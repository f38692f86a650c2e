import { createRouter } from "../../lib/create-app.js";
import { getHealthHandler, getLivenessHandler, getReadinessHandler } from "./health.handlers.js";
import { getHealth, getLiveness, getReadiness } from "./health.routes.js";

export const healthRouter = createRouter()
  .openapi(getHealth, getHealthHandler)
  .openapi(getLiveness, getLivenessHandler)
  .openapi(getReadiness, getReadinessHandler);
