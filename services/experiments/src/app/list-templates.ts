import { type TemplateListItem, listTemplates } from "../domain/templates/index.js";

/** GET /templates: the catalogue, filtered by category and BSL level (either spelling); "" = no filter. */
export function makeListTemplates() {
  return function listTemplatesUseCase(filter: { category: string; bslLevel: string }): TemplateListItem[] {
    return listTemplates({
      category: filter.category === "" ? null : filter.category,
      bsl_level: filter.bslLevel === "" ? null : filter.bslLevel,
    });
  };
}
