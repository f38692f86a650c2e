/**
 * Protocol templates (docs/api.md "Template"): standard method outlines a request can reference
 * with `protocol.template_id` and fill with `protocol.template_parameters`.
 */
import type {
  BslLevelName,
  ExperimentTypeName,
  TemplateCategoryName,
  TemplateParameterTypeName,
} from "@petri/contracts/vocabulary";
import type { RequestError } from "../contracts.js";

export type TemplateCategory = TemplateCategoryName;

/** The proto enum TemplateCategory's REST spellings (templates.proto), in its order. */
export { TEMPLATE_CATEGORIES } from "@petri/contracts/vocabulary";

export type TemplateParameterType = TemplateParameterTypeName;

interface ParameterBase {
  readonly name: string;
  /**
   * The method cannot run without a value. A required parameter always has a default in the
   * catalogue, so it may be omitted (the default applies); it may not be sent as null.
   */
  readonly required: boolean;
  readonly description: string;
  /** Display unit for numbers, e.g. "hours", "ug/mL". */
  readonly unit?: string;
}

export interface StringParameter extends ParameterBase {
  readonly type: "string";
  readonly default?: string;
  /** At most this many characters (a string must have at least one). */
  readonly max_length: number;
}

export interface NumberParameter extends ParameterBase {
  readonly type: "number" | "integer";
  readonly default?: number;
  /** Inclusive bounds. */
  readonly minimum?: number;
  readonly maximum?: number;
}

export interface BooleanParameter extends ParameterBase {
  readonly type: "boolean";
  readonly default?: boolean;
}

export interface EnumParameter extends ParameterBase {
  readonly type: "enum";
  readonly allowed_values: readonly string[];
  readonly default?: string;
}

export type TemplateParameter = StringParameter | NumberParameter | BooleanParameter | EnumParameter;

export interface TemplateMaterial {
  readonly name: string;
  /** A generic specification of the material; never a vendor catalogue number. */
  readonly catalog: string;
}

export interface TemplateStep {
  readonly step: number;
  readonly action: string;
  /** Wall-clock minutes, incubations included. */
  readonly duration_minutes: number;
}

export interface ProtocolTemplate {
  /** Kebab-case with the major version as suffix, e.g. "mic-broth-microdilution-v1". */
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly category: TemplateCategory;
  readonly bsl_level: BslLevelName;
  /** Semantic version; its major number equals the id's "-vN" suffix. */
  readonly version: string;
  readonly experiment_type: ExperimentTypeName;
  readonly parameters: readonly TemplateParameter[];
  readonly equipment_required: readonly string[];
  readonly typical_materials: readonly TemplateMaterial[];
  /** Sum of the step durations, rounded up to whole hours. */
  readonly estimated_duration_hours: number;
  /** Whole USD, inside the experiment type's market price band (docs/intake-model.md). */
  readonly estimated_cost_usd: { readonly low: number; readonly high: number };
  readonly protocol_steps: readonly TemplateStep[];
}

/** An item of GET /templates. */
export interface TemplateListItem {
  id: string;
  name: string;
  description: string;
  category: TemplateCategory;
  bsl_level: BslLevelName;
  /** e.g. "$200-$400". */
  estimated_cost_range: string;
}

export interface TemplateListFilter {
  /** One of TEMPLATE_CATEGORIES, case-insensitive. */
  category?: string | null;
  /** "BSL-1", "BSL1", "bsl1", "bsl-1", "BSL 1" … (exact level match). */
  bsl_level?: string | null;
}

/** A template-parameter error; assignable to the intake's RequestError. */
export type TemplateParameterError = RequestError & { code: "missing_required" | "invalid_value" };
