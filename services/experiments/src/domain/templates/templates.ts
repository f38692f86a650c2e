/**
 * Template look-ups, listing filters and parameter checks. Pure: no I/O, no clock.
 */
import type { BslLevelName } from "@petri/contracts/vocabulary";
import { TEMPLATE_CATALOGUE } from "./catalogue.js";
import type {
  ProtocolTemplate,
  TemplateCategory,
  TemplateListFilter,
  TemplateListItem,
  TemplateParameter,
  TemplateParameterError,
} from "./types.js";
import { TEMPLATE_CATEGORIES } from "./types.js";

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Every template, in catalogue order (grouped by experiment type). Frozen. */
export const TEMPLATES: readonly ProtocolTemplate[] = deepFreeze(TEMPLATE_CATALOGUE);

const BY_ID: ReadonlyMap<string, ProtocolTemplate> = new Map(TEMPLATES.map((t) => [t.id, t]));

/** The full template record, or undefined for an unknown id. Ids are matched exactly. */
export function getTemplate(id: unknown): ProtocolTemplate | undefined {
  return typeof id === "string" ? BY_ID.get(id) : undefined;
}

export function isTemplateCategory(value: unknown): value is TemplateCategory {
  return typeof value === "string" && (TEMPLATE_CATEGORIES as readonly string[]).includes(value);
}

/**
 * "BSL-1", "BSL1", "bsl1", "bsl-1", "BSL 1", "BSL_1", "1" (and the number 1) all give "BSL-1";
 * levels 1 to 4 are recognised. Anything else gives null.
 */
export function normalizeBslLevel(value: unknown): BslLevelName | null {
  let level: number | null = null;
  if (typeof value === "number" && Number.isInteger(value)) level = value;
  if (typeof value === "string") {
    const match = /^\s*(?:bsl)?[\s_-]*([1-4])\s*$/i.exec(value);
    if (match) level = Number(match[1]);
  }
  return level !== null && level >= 1 && level <= 4 ? (`BSL-${level}` as BslLevelName) : null;
}

/** "$200-$400"; whole dollars without decimals, otherwise two decimals. */
export function formatCostRange(cost: { readonly low: number; readonly high: number }): string {
  const usd = (n: number) => `$${Number.isInteger(n) ? String(n) : n.toFixed(2)}`;
  return `${usd(cost.low)}-${usd(cost.high)}`;
}

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");

/**
 * GET /templates. `category` is matched case-insensitively; `bsl_level` accepts any spelling
 * normalizeBslLevel accepts and matches the template's level exactly. Absent or empty filters
 * do not filter; an unrecognised value matches nothing (the caller may reject it first with
 * isTemplateCategory / normalizeBslLevel).
 */
export function listTemplates(filter: TemplateListFilter = {}): TemplateListItem[] {
  const category = isBlank(filter.category) ? null : String(filter.category).trim().toLowerCase();
  const bsl = isBlank(filter.bsl_level) ? null : normalizeBslLevel(filter.bsl_level);
  if (category !== null && !isTemplateCategory(category)) return [];
  if (!isBlank(filter.bsl_level) && bsl === null) return [];
  return TEMPLATES.filter(
    (t) => (category === null || t.category === category) && (bsl === null || t.bsl_level === bsl),
  ).map((t) => ({
    id: t.id,
    name: t.name,
    description: t.description,
    category: t.category,
    bsl_level: t.bsl_level,
    estimated_cost_range: formatCostRange(t.estimated_cost_usd),
  }));
}

const PARAMETERS_PATH = "protocol.template_parameters";

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const hasOwn = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);

const quote = (s: string) => JSON.stringify(s.length > 100 ? `${s.slice(0, 100)}…` : s);

function describeBounds(p: { minimum?: number; maximum?: number; unit?: string }): string {
  const unit = p.unit ? ` ${p.unit}` : "";
  if (p.minimum !== undefined && p.maximum !== undefined)
    return ` between ${p.minimum} and ${p.maximum}${unit}`;
  if (p.minimum !== undefined) return ` of at least ${p.minimum}${unit}`;
  if (p.maximum !== undefined) return ` of at most ${p.maximum}${unit}`;
  return "";
}

/** Why `value` is not acceptable for `p`, or null when it is. `value` is neither undefined nor null. */
function problemWith(p: TemplateParameter, value: unknown): string | null {
  switch (p.type) {
    case "string":
      if (typeof value !== "string" || value.trim() === "") return `${p.name} must be a non-empty string`;
      if (value.length > p.max_length) return `${p.name} must be at most ${p.max_length} characters`;
      return null;
    case "boolean":
      return typeof value === "boolean" ? null : `${p.name} must be true or false`;
    case "enum":
      return typeof value === "string" && p.allowed_values.includes(value)
        ? null
        : `${p.name} must be one of ${p.allowed_values.join(", ")}`;
    case "number":
    case "integer": {
      const kind = p.type === "integer" ? "an integer" : "a number";
      const ok =
        typeof value === "number" &&
        Number.isFinite(value) &&
        (p.type === "number" || Number.isInteger(value)) &&
        (p.minimum === undefined || value >= p.minimum) &&
        (p.maximum === undefined || value <= p.maximum);
      return ok ? null : `${p.name} must be ${kind}${describeBounds(p)}`;
    }
  }
}

/**
 * Checks parameters as sent against one template (the catalogue or a candidate one):
 * - a parameter the template does not define: invalid_value;
 * - a required parameter that is absent and has no default, or is sent as null: missing_required
 *   (absent with a default is fine: applyTemplateDefaults supplies it);
 * - an optional parameter sent as null: accepted ("not used");
 * - a value of the wrong type, outside the bounds or not among the allowed values: invalid_value.
 * Paths are "protocol.template_parameters.<name>"; errors come in template parameter order,
 * then unknown parameters in the order sent.
 */
export function checkParametersAgainstTemplate(
  template: ProtocolTemplate,
  parameters: unknown,
): TemplateParameterError[] {
  if (parameters === undefined || parameters === null) parameters = {};
  if (!isPlainObject(parameters)) {
    return [
      { path: PARAMETERS_PATH, code: "invalid_value", message: "template_parameters must be an object" },
    ];
  }
  const errors: TemplateParameterError[] = [];
  for (const p of template.parameters) {
    const path = `${PARAMETERS_PATH}.${p.name}`;
    const value = hasOwn(parameters, p.name) ? parameters[p.name] : undefined;
    if (value === undefined) {
      if (p.required && p.default === undefined) {
        errors.push({
          path,
          code: "missing_required",
          message: `${p.name} is required by template ${template.id}`,
        });
      }
    } else if (value === null) {
      if (p.required) {
        errors.push({ path, code: "missing_required", message: `${p.name} is required and cannot be null` });
      }
    } else {
      const problem = problemWith(p, value);
      if (problem !== null) errors.push({ path, code: "invalid_value", message: problem });
    }
  }
  const known = new Set(template.parameters.map((p) => p.name));
  for (const key of Object.keys(parameters)) {
    if (!known.has(key)) {
      errors.push({
        path: `${PARAMETERS_PATH}.${key}`,
        code: "invalid_value",
        message: `template ${template.id} has no parameter ${quote(key)}; it takes ${[...known].join(", ")}`,
      });
    }
  }
  return errors;
}

/**
 * Checks `protocol.template_parameters` for `protocol.template_id`. An unknown (or non-string)
 * template id gives a single invalid_value error at "protocol.template_id".
 */
export function checkTemplateParameters(templateId: unknown, parameters: unknown): TemplateParameterError[] {
  const template = getTemplate(templateId);
  if (template === undefined) {
    const message =
      typeof templateId === "string"
        ? `unknown template id ${quote(templateId)}; see GET /templates`
        : "template_id must be a string naming a template; see GET /templates";
    return [{ path: "protocol.template_id", code: "invalid_value", message }];
  }
  return checkParametersAgainstTemplate(template, parameters);
}

/**
 * The parameters as sent plus the template's defaults for every parameter that was not sent.
 * A value that was sent (null included) is never replaced. An unknown template id, or
 * parameters that are not an object, add nothing: the result is a copy of the object sent
 * (or {}), and checkTemplateParameters reports the problem.
 */
export function applyTemplateDefaults(templateId: unknown, parameters?: unknown): Record<string, unknown> {
  const given: Record<string, unknown> = isPlainObject(parameters) ? { ...parameters } : {};
  const template = getTemplate(templateId);
  if (template === undefined) return given;
  for (const p of template.parameters) {
    if (p.default !== undefined && (!hasOwn(given, p.name) || given[p.name] === undefined)) {
      given[p.name] = p.default;
    }
  }
  return given;
}
