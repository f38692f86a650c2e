import { createRoute, z } from "@hono/zod-openapi";
import { authenticatedAccess } from "../../lib/access.js";
import { errorResponses, jsonResponse, lookupErrors } from "../../lib/openapi.js";
import { TEMPLATE_CATEGORIES } from "@petri/contracts/vocabulary";

const bslLevel = z
  .string()
  .openapi({ description: "BSL-1 or BSL-2 (hyphenated in listings)", example: "BSL-2" });

export const TemplateListItemSchema = z
  .looseObject({
    id: z.string().openapi({ description: "Versioned id", example: "mic-broth-microdilution-v1" }),
    name: z.string(),
    description: z.string(),
    category: z.enum(TEMPLATE_CATEGORIES),
    bsl_level: bslLevel,
    estimated_cost_range: z.string().openapi({ example: "$200-$400" }),
  })
  .openapi("TemplateListItem");

export const TemplateSchema = z
  .looseObject({
    id: z.string().openapi({ example: "mic-broth-microdilution-v1" }),
    name: z.string(),
    description: z.string(),
    category: z.enum(TEMPLATE_CATEGORIES),
    bsl_level: bslLevel,
    version: z.string().openapi({ description: "Semantic version; its major number is the id's -vN suffix" }),
    experiment_type: z.string(),
    parameters: z.array(
      z.looseObject({
        name: z.string(),
        type: z.string().openapi({ description: "string, number, integer, boolean or enum" }),
        required: z.boolean(),
        default: z.unknown().optional(),
        description: z.string(),
      }),
    ),
    equipment_required: z.array(z.string()),
    typical_materials: z.array(z.looseObject({ name: z.string(), catalog: z.string() })),
    estimated_duration_hours: z.number(),
    estimated_cost_usd: z.object({ low: z.number(), high: z.number() }),
    protocol_steps: z.array(
      z.looseObject({ step: z.int(), action: z.string(), duration_minutes: z.number() }),
    ),
  })
  .openapi("Template", {
    description:
      "A protocol template. Reference it from a request with protocol.type standard_template, protocol.template_id and protocol.template_parameters (checked against parameters).",
  });

export const ListTemplatesQuerySchema = z.object({
  category: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({ description: `One of ${TEMPLATE_CATEGORIES.join(", ")}` }),
  bsl_level: z
    .string()
    .min(1)
    .max(16)
    .optional()
    .openapi({ description: "BSL-1 or BSL-2, in either spelling (BSL1, BSL-1)" }),
});

export const TemplateIdParamsSchema = z.object({
  template_id: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: "template_id", in: "path" }, example: "mic-broth-microdilution-v1" }),
});

export const listTemplates = createRoute({
  method: "get",
  path: "/templates",
  operationId: "listTemplates",
  tags: ["Templates"],
  summary: "The protocol templates (at least one per experiment type)",
  ...authenticatedAccess,
  request: { query: ListTemplatesQuerySchema },
  responses: {
    200: jsonResponse(
      "The matching templates",
      z.object({ templates: z.array(TemplateListItemSchema) }).openapi("TemplateList"),
    ),
    ...errorResponses({ authenticated: true, parameters: true }),
  },
});

export const getTemplate = createRoute({
  method: "get",
  path: "/templates/{template_id}",
  operationId: "getTemplate",
  tags: ["Templates"],
  summary: "A template's full record: parameters, equipment, materials, steps, duration, cost range",
  ...authenticatedAccess,
  request: { params: TemplateIdParamsSchema },
  responses: {
    200: jsonResponse("The template", TemplateSchema),
    ...lookupErrors("No such template (not_found)"),
  },
});
