import { createRouter } from "../../lib/create-app.js";
import { getConfigHandler } from "./config.handlers.js";
import { getConfig } from "./config.routes.js";

export const configRouter = createRouter().openapi(getConfig, getConfigHandler);
