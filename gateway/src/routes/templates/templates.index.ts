import { createRouter } from "../../lib/create-app.js";
import { getTemplateHandler, listTemplatesHandler } from "./templates.handlers.js";
import { getTemplate, listTemplates } from "./templates.routes.js";

export const templatesRouter = createRouter({ errorPaths: true })
  .openapi(listTemplates, listTemplatesHandler)
  .openapi(getTemplate, getTemplateHandler);
