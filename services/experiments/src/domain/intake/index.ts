/**
 * Experiment-request intake: the request model, its validation and the hypothesis checks.
 * Pure domain code (docs/architecture.md §3): no I/O, no clock reads.
 */
export { validateExperimentRequest, parseExperimentType } from "./validate-request.js";
export type { ValidateOptions, ValidationMode, ValidationResult } from "./validate-request.js";
export { validateHypothesis, hypothesisSuggestions } from "./validate-hypothesis.js";
export type { HypothesisInput, HypothesisValidation } from "./validate-hypothesis.js";
export type {
  AcceptanceCriteria,
  CellViabilitySection,
  CommunicationPreferences,
  Compliance,
  CustomProtocol,
  Deliverables,
  EnzymeInhibitionSection,
  Hypothesis,
  Material,
  Metadata,
  MicMbcAssaySection,
  MicMbcSection,
  MicrobialGrowthSection,
  NormalizedCommon,
  NormalizedDraft,
  NormalizedProtocol,
  NormalizedRequest,
  QpcrSection,
  Replicates,
  SangerSection,
  TurnaroundBudget,
  TypeSpecific,
  ZoneOfInhibitionSection,
} from "./model.js";
export { PROCESSED_OUTPUTS_ANY_TYPE, PROCESSED_OUTPUTS_BY_TYPE, TYPICAL_PRICE_BANDS_USD } from "./model.js";
export { bslNumber, isSupportedBsl, normalizeBsl, SUPPORTED_BSL_LEVELS } from "./bsl.js";
export type { SupportedBslLevel } from "./bsl.js";
export { casChecksumOk, findCasNumbers, normalizeCas } from "./cas.js";
export {
  experimentRequestSchema,
  REQUEST_SECTION_SCHEMAS,
  TYPE_SECTION_SCHEMAS,
  TYPE_SECTIONS,
} from "./schema/request.js";
// Enumerations of the model.
export {
  CONDITION_OPERATORS,
  PACKAGE_LEVELS,
  PHOTO_DOCUMENTATION,
  PREFERRED_CONTACTS,
  PRIOR_WORK_TYPES,
  PROCESSED_OUTPUTS,
  PROTOCOL_TYPES,
  RAW_DATA_FORMATS,
  STATISTICAL_TESTS,
  SUBMITTER_TYPES,
} from "./schema/common.js";
export type {
  ConditionOperator,
  PackageLevel,
  ProcessedOutput,
  ProtocolType,
  RawDataFormat,
  StatisticalTest,
  SubmitterType,
} from "./schema/common.js";
export { DURATION_UNITS, TEMPERATURE_UNITS } from "./schema/protocol.js";
export {
  AERATION,
  DILUTION_SERIES,
  ENZYME_ASSAY_TYPES,
  GROWTH_MEASUREMENTS,
  MIC_DILUTION_SERIES,
  MIC_METHODS,
  ORGANISM_SOURCES,
  PLATE_FORMATS,
  QPCR_CHEMISTRIES,
  QPCR_SAMPLE_TYPES,
  SANGER_TEMPLATE_TYPES,
  VIABILITY_ASSAY_TYPES,
} from "./schema/types.js";
// Section schemas (strict zod objects; see schema/common.ts for the conventions).
export {
  acceptanceCriteriaSchema,
  communicationPreferencesSchema,
  complianceSchema,
  constraintsSchema,
  deliverablesSchema,
  hypothesisSchema,
  materialSchema,
  metadataSchema,
  replicatesSchema,
  turnaroundBudgetSchema,
} from "./schema/common.js";
export { customProtocolSchema, protocolSchema } from "./schema/protocol.js";
export {
  cellViabilitySchema,
  enzymeInhibitionSchema,
  micMbcAssaySchema,
  micMbcSchema,
  microbialGrowthSchema,
  qpcrSchema,
  sangerSchema,
  zoneOfInhibitionSchema,
} from "./schema/types.js";
export { WARNING_RULES } from "./rules/index.js";
export type { WarningRule } from "./rules/index.js";
export { CONTROLLED_SUBSTANCES } from "./safety/controlled-substances.js";
export type { CasSource, ControlledCategory, ControlledSubstance } from "./safety/controlled-substances.js";
