/**
 * GET /templates and /templates/{id} from the experiments service's answers: the typed templates
 * when the service sent them, the JSON text from a service built before them (or for a
 * catalogue entry its message cannot say exactly; decisions.md D352).
 */
import type { GetTemplateResponse, ListTemplatesResponse } from "@petri/contracts/experiments";
import { ProtocolTemplateSchema, TemplateSummarySchema } from "@petri/contracts/experiments";
import { toRestJson } from "@petri/contracts/rest-json";
import { parseJsonField } from "./experiments-json.js";

export function templateListJson(answer: ListTemplatesResponse): unknown[] {
  return answer.templates.length > 0
    ? answer.templates.map((item) => toRestJson(TemplateSummarySchema, item))
    : answer.templatesJson.map((text) => parseJsonField(text, "a template"));
}

export function templateJson(answer: GetTemplateResponse): unknown {
  return answer.template
    ? toRestJson(ProtocolTemplateSchema, answer.template)
    : parseJsonField(answer.templateJson, "a template");
}
