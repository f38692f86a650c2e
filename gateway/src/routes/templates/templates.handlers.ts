import type { RouteHandler, z } from "@hono/zod-openapi";
import { asCaller } from "../../lib/clients.js";
import type { GatewayEnv } from "../../lib/create-app.js";
import { callService } from "../../lib/service-call.js";
import { templateJson, templateListJson } from "../../lib/templates-json.js";
import type * as routes from "./templates.routes.js";

// The service owns the catalogue's shape; the gateway writes what it answers.
type TemplateListItem = z.infer<typeof routes.TemplateListItemSchema>;
type Template = z.infer<typeof routes.TemplateSchema>;

export const listTemplatesHandler: RouteHandler<typeof routes.listTemplates, GatewayEnv> = async (c) => {
  const { category, bsl_level } = c.req.valid("query");
  const answer = await callService(() =>
    c
      .get("runtime")
      .clients.experiments.listTemplates({ category: category ?? "", bslLevel: bsl_level ?? "" }, asCaller()),
  );
  return c.json({ templates: templateListJson(answer) as TemplateListItem[] }, 200);
};

export const getTemplateHandler: RouteHandler<typeof routes.getTemplate, GatewayEnv> = async (c) => {
  const { template_id } = c.req.valid("param");
  const answer = await callService(() =>
    c.get("runtime").clients.experiments.getTemplate({ templateId: template_id }, asCaller()),
  );
  return c.json(templateJson(answer) as Template, 200);
};
