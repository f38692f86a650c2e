export type {
  BooleanParameter,
  EnumParameter,
  NumberParameter,
  ProtocolTemplate,
  StringParameter,
  TemplateCategory,
  TemplateListFilter,
  TemplateListItem,
  TemplateMaterial,
  TemplateParameter,
  TemplateParameterError,
  TemplateParameterType,
  TemplateStep,
} from "./types.js";
export { TEMPLATE_CATEGORIES } from "./types.js";
export {
  TEMPLATES,
  applyTemplateDefaults,
  checkParametersAgainstTemplate,
  checkTemplateParameters,
  formatCostRange,
  getTemplate,
  isTemplateCategory,
  listTemplates,
  normalizeBslLevel,
} from "./templates.js";
