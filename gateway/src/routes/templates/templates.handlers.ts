import type { RouteHandler, z } from "@hono/zod-openapi";
import { asCaller } from "../../lib/clients.js";
import type { GatewayEnv } from "../../lib/create-app.js";
import { parseJsonField } from "../../lib/experiments-json.js";
import { callService } from "../../lib/service-call.js";
import type {
  TemplateListItemSchema,
  TemplateSchema,
  getTemplate,
  listTemplates,
} from "./templates.routes.js";

// The catalogue's JSON is passed on as the service wrote it (the service owns its shape).
type TemplateListItem = z.infer<typeof TemplateListItemSchema>;
type Template = z.infer<typeof TemplateSchema>;

export const listTemplatesHandler: RouteHandler<typeof listTemplates, GatewayEnv> = async (c) => {
  const { category, bsl_level } = c.req.valid("query");
  const { templatesJson } = await callService(() =>
    c
      .get("runtime")
      .clients.experiments.listTemplates({ category: category ?? "", bslLevel: bsl_level ?? "" }, asCaller()),
  );
  const templates = templatesJson.map((text) => parseJsonField(text, "a template") as TemplateListItem);
  return c.json({ templates }, 200);
};

export const getTemplateHandler: RouteHandler<typeof getTemplate, GatewayEnv> = async (c) => {
  const { template_id } = c.req.valid("param");
  const { templateJson } = await callService(() =>
    c.get("runtime").clients.experiments.getTemplate({ templateId: template_id }, asCaller()),
  );
  return c.json(parseJsonField(templateJson, "a template") as Template, 200);
};
