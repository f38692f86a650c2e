import { createRouter } from "../../lib/create-app.js";
import { getResultFileHandler } from "./files.handlers.js";
import { getResultFile } from "./files.routes.js";

export const filesRouter = createRouter().openapi(getResultFile, getResultFileHandler);
