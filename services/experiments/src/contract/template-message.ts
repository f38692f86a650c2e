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

import {
  type ProtocolTemplate,
  TEMPLATES,
  type TemplateListItem,
  listTemplates,
} from "../domain/templates/index.js";

export interface TemplateForms<M> {
  json: string;
  message: M | undefined;
}

/** A template's message, when it says the template exactly, and its JSON text. */
export function templateMessageForms(template: ProtocolTemplate): TemplateForms<ProtocolTemplateMessage> {
  return { json: JSON.stringify(template), message: exactRestMessage(ProtocolTemplateSchema, template) };
}

/** A list item's message, when it says the item exactly, and its JSON text. */
function templateSummaryForms(item: TemplateListItem): TemplateForms<TemplateSummary> {
  return { json: JSON.stringify(item), message: exactRestMessage(TemplateSummarySchema, item) };
}

interface CatalogueForms {
  readonly templates: ReadonlyMap<string, TemplateForms<ProtocolTemplateMessage>>;
  readonly summaries: ReadonlyMap<string, TemplateForms<TemplateSummary>>;
}

/**
 * The catalogue's forms, by template id, built once on the first call that needs them (about
 * 70 ms for the 14 templates, so not when the module loads): the catalogue is fixed for the life
 * of the process, so no later GET /templates or /templates/{id} converts anything.
 */
let catalogue: CatalogueForms | undefined;

function catalogueForms(): CatalogueForms {
  catalogue ??= {
    templates: new Map(TEMPLATES.map((template) => [template.id, templateMessageForms(template)])),
    summaries: new Map(listTemplates({}).map((item) => [item.id, templateSummaryForms(item)])),
  };
  return catalogue;
}

function formsOf<M>(forms: ReadonlyMap<string, TemplateForms<M>>, id: string): TemplateForms<M> {
  const found = forms.get(id);
  if (!found) throw new Error(`template ${id} is not in the catalogue`);
  return found;
}

/** The forms of a template of the catalogue (getTemplate's answer). */
export const catalogueTemplateForms = (template: ProtocolTemplate) =>
  formsOf(catalogueForms().templates, template.id);

/** The forms of an item of the catalogue's list (listTemplates' answer). */
export const catalogueSummaryForms = (item: TemplateListItem) => formsOf(catalogueForms().summaries, item.id);
