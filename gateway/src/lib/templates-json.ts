/**
 * GET /templates and /templates/{id} from the experiments service's answers: the typed templates
 * when the service sent them, the JSON text from a service built before them (or for a
 * catalogue entry its message cannot say exactly; decisions.md D352).
 */
import type { GetTemplateResponse, ListTemplatesResponse } from "@petri/contracts/experiments";
import { ProtocolTemplateSchema, TemplateSummarySchema } from "@petri/contracts/experiments";
import { toRestJson } from "@petri/contracts/rest-json";
import { type SentText, parseObjectText, typedOrText } from "./json-text.js";

const TEMPLATE: SentText = { service: "experiments", what: "a template" };

export function templateListJson(answer: ListTemplatesResponse): unknown[] {
  return answer.templates.length > 0
    ? answer.templates.map((item) => toRestJson(TemplateSummarySchema, item))
    : answer.templatesJson.map((text) => parseObjectText(text, TEMPLATE));
}

export function templateJson(answer: GetTemplateResponse): unknown {
  return typedOrText(ProtocolTemplateSchema, answer.template, answer.templateJson, TEMPLATE);
}
