/**
 * Templates as messages (petri.experiments.v1.ProtocolTemplate, TemplateSummary). They travel
 * typed and, while a gateway built before may run, as JSON text too (decisions.md D352). A
 * template travels typed only when its message writes back exactly the REST JSON the catalogue
 * holds, so the typed field never changes what REST shows.
 */
import {
  type ProtocolTemplate as ProtocolTemplateMessage,
  ProtocolTemplateSchema,
  type TemplateSummary,
  TemplateSummarySchema,
} from "@petri/contracts/experiments";
import { exactRestMessage } from "@petri/contracts/rest-json";

import type { ProtocolTemplate, TemplateListItem } from "../domain/templates/index.js";

export interface TemplateForms<M> {
  json: string;
  message: M | undefined;
}

/**
 * The catalogue is fixed for the life of the process, so each template (and list item) is
 * converted once: by its JSON text, which also tells a changed value from a known one.
 */
function memoised<M>(convert: (value: unknown) => M | undefined): (value: unknown) => TemplateForms<M> {
  const known = new Map<string, TemplateForms<M>>();
  return (value) => {
    const json = JSON.stringify(value);
    let forms = known.get(json);
    if (!forms) {
      forms = { json, message: convert(value) };
      known.set(json, forms);
    }
    return forms;
  };
}

const templateForms = memoised((value) => exactRestMessage(ProtocolTemplateSchema, value));
const summaryForms = memoised((value) => exactRestMessage(TemplateSummarySchema, value));

export function templateMessageForms(template: ProtocolTemplate): TemplateForms<ProtocolTemplateMessage> {
  return templateForms(template);
}

export function templateSummaryForms(item: TemplateListItem): TemplateForms<TemplateSummary> {
  return summaryForms(item);
}
