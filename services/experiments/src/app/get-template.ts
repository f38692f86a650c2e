import { NotFoundError } from "@petri/service-kit";
import { type ProtocolTemplate, getTemplate } from "../domain/templates/index.js";

/** GET /templates/{id}: the full record; 404 for an unknown id. */
export function makeGetTemplate() {
  return function getTemplateUseCase(templateId: string): ProtocolTemplate {
    const template = getTemplate(templateId);
    if (!template) throw new NotFoundError("template", templateId);
    return template;
  };
}
