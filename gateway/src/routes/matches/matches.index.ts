import { createRouter } from "../../lib/create-app.js";
import { rankLabsHandler } from "./matches.handlers.js";
import { rankLabs } from "./matches.routes.js";

export const matchesRouter = createRouter({ errorPaths: true }).openapi(rankLabs, rankLabsHandler);
