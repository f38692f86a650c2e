/**
 * validateExperimentRequest: the whole intake check behind POST /validate, POST /experiments
 * and drafts. Pure: no I/O, no clock (the caller passes `now`), never throws on any JSON input.
 *
 * Order of work:
 * 1. The body must be a JSON object. Object properties whose value is null are treated as
 *    absent (clients often send null for "not set"); null array items are not dropped.
 * 2. Unknown top-level fields -> invalid_value (nested sections are strict too).
 * 3. experiment_type: missing -> missing_required; any value other than the eight types
 *    (compared case-insensitively, "-"/" " read as "_") -> invalid_experiment_type.
 * 4. Each section is parsed on its own (an error in one does not hide the others), zod issues
 *    become readable `invalid_value` errors, required fields are listed apart (./required.ts).
 * 5. Cross-field rules: the type's section, sections of other types, protocol choice, custom
 *    protocol completeness (./custom-protocol.ts), processed outputs per type, contact by
 *    webhook, hard deadline.
 * 6. Spellings are merged into the stored form (./normalize.ts); conflicts are invalid_value.
 * 7. Template parameters are checked through options.checkTemplate.
 * 8. Safety: BSL-3+ (bsl_level_exceeded) and controlled substances are rejecting
 *    (safety_violation errors + safety_rejected); human subjects is a flag and a review reason.
 * 9. Warning rules (./rules), review reasons.
 *
 * Modes: in "submit" mode a missing required field is a `missing_required` error. In "draft"
 * mode it is a warning with the same code (so an incomplete request can be saved and the client
 * sees what is left to fill in); malformed values, unknown fields, conflicts and safety
 * violations are errors in both modes. `valid` is `errors.length === 0`. `draft` (the normalised
 * form, possibly incomplete) is returned whenever valid; `request` (NormalizedRequest) only when
 * valid and complete — in draft mode too, if nothing is missing.
 */
import type { z } from "zod";

import {
  EXPERIMENT_TYPES,
  type ExperimentType,
  type RequestError,
  type RequestWarning,
  type ReviewReason,
  type SafetyFinding,
  type SafetyFlag,
} from "../contracts.js";
import { normalizeBsl } from "./bsl.js";
import { customProtocolProblems } from "./custom-protocol.js";
import { fieldMessage, readableMessage, toRequestErrors } from "./issues.js";
import {
  PROCESSED_OUTPUTS_ANY_TYPE,
  PROCESSED_OUTPUTS_BY_TYPE,
  type NormalizedDraft,
  type NormalizedRequest,
} from "./model.js";
import { normalizeSections, type ParsedSections } from "./normalize.js";
import { formatPath, isPlainObject, joinPath, ownValue } from "./paths.js";
import { collectMissing } from "./required.js";
import { runRules } from "./rules/index.js";
import { PROTOCOL_TYPES, type ProtocolType } from "./schema/common.js";
import {
  REQUEST_FIELDS,
  REQUEST_SECTION_SCHEMAS,
  TYPE_SECTIONS,
  TYPE_SECTION_SCHEMAS,
  type RequestSectionKey,
  type TypeSectionKey,
} from "./schema/request.js";
import { findControlledSubstances, findHumanSubjectPhrases } from "./safety/scan.js";
import { MAX_DEPTH, walkStrings } from "./safety/walk.js";

export type ValidationMode = "submit" | "draft";

export interface ValidateOptions {
  mode: ValidationMode;
  /** The current time (injected clock); used for the hard deadline. */
  now: Date;
  /**
   * Checks template_parameters against the template (domain/templates). Error paths may be
   * relative to protocol.template_parameters ("concentration_points", "[0]") or absolute
   * ("protocol.template_id"); "" means protocol.template_parameters itself. A missing_required
   * error follows the mode (a warning in draft mode). Not called when protocol.type is not
   * standard_template or template_id is absent.
   */
  checkTemplate?: (templateId: string, parameters: Record<string, unknown>) => RequestError[];
}

export interface ValidationResult {
  valid: boolean;
  errors: RequestError[];
  warnings: RequestWarning[];
  /** Every safety finding with its path. */
  safety: SafetyFinding[];
  /** The distinct flags of `safety`, in docs/api.md order. */
  safety_flags: SafetyFlag[];
  /** The stored form; present when valid and complete. */
  request?: NormalizedRequest;
  /** The normalised form, possibly incomplete; present when valid (use it to store drafts). */
  draft?: NormalizedDraft;
  /** Why staff must review the request before it opens (status pending_review). */
  review_reasons: ReviewReason[];
}

const FLAG_ORDER: readonly SafetyFlag[] = [
  "bsl_level_exceeded",
  "controlled_substance",
  "human_subjects",
  "safety_rejected",
];
const REVIEW_ORDER: readonly ReviewReason[] = [
  "protocol_design_requested",
  "custom_protocol",
  "bsl2_human_derived_material",
  "flagged_hazard",
  "human_subjects",
];

interface Missing {
  path: string;
  message: string;
}

/** Case-insensitive experiment type ("mic_mbc_assay", "MIC-MBC-ASSAY" -> MIC_MBC_ASSAY). */
export function parseExperimentType(value: unknown): ExperimentType | null {
  if (typeof value !== "string") return null;
  const canonical = value
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, "_");
  return EXPERIMENT_TYPES.find((t) => t === canonical) ?? null;
}

/** Drops object properties whose value is null (recursively); arrays keep their items. */
function stripNullProperties(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => stripNullProperties(item, depth + 1));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === null) continue;
    Object.defineProperty(out, key, {
      value: stripNullProperties(item, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function utcDate(now: Date): string {
  return Number.isNaN(now.getTime()) ? "0000-00-00" : now.toISOString().slice(0, 10);
}

function child(value: unknown, key: string): unknown {
  return isPlainObject(value) ? ownValue(value, key) : undefined;
}

function typeSectionMessage(type: ExperimentType): string {
  if (type === "CUSTOM")
    return "experiment_type CUSTOM needs a custom protocol: custom_protocol (or protocol.custom_protocol)";
  if (type === "MIC_MBC_ASSAY")
    return "experiment_type MIC_MBC_ASSAY needs its section mic_mbc (or the cloud-lab form mic_mbc_assay)";
  return `experiment_type ${type} needs its section ${TYPE_SECTIONS[type][0]}`;
}

export function validateExperimentRequest(input: unknown, options: ValidateOptions): ValidationResult {
  const errors: RequestError[] = [];
  const warnings: RequestWarning[] = [];
  const missing: Missing[] = [];
  const safety: SafetyFinding[] = [];
  const walked = walkStrings(input);
  const strings = walked.strings;

  // A body too deep or too large to check completely is refused (nothing may go unscanned).
  for (const path of walked.tooDeep) {
    errors.push({
      path: formatPath(path),
      code: "invalid_value",
      message: `${path.length === 0 ? "the request" : formatPath(path)} is nested too deeply (more than ${MAX_DEPTH} levels)`,
    });
  }
  if (walked.truncated) {
    errors.push({
      path: "",
      code: "invalid_value",
      message: "The request contains too many values to check",
    });
  }

  // Controlled substances: every string anywhere, before anything can stop the check.
  for (const hit of findControlledSubstances(input, strings)) {
    const path = formatPath(hit.path);
    safety.push({
      flag: "controlled_substance",
      path,
      message: `${hit.substance.name} (${hit.substance.schedule}), matched "${hit.matched}"`,
    });
    errors.push({
      path,
      code: "safety_violation",
      message: `${hit.substance.name} is a controlled substance (${hit.substance.schedule}); Petri does not accept requests involving it`,
    });
  }

  if (!isPlainObject(input)) {
    errors.push({ path: "", code: "invalid_value", message: "The request body must be a JSON object" });
    return finish({ errors, warnings, missing, safety, mode: options.mode });
  }
  const body = stripNullProperties(input) as Record<string, unknown>;
  const raw = (key: string): unknown => ownValue(body, key);

  // Unknown top-level fields.
  for (const key of Object.keys(body)) {
    if (!REQUEST_FIELDS.includes(key)) {
      errors.push({
        path: formatPath([key]),
        code: "invalid_value",
        message: `Unknown field ${JSON.stringify(key)}: it is not part of the experiment request`,
      });
    }
  }

  // experiment_type.
  let experimentType: ExperimentType | undefined;
  const rawType = raw("experiment_type");
  if (rawType === undefined) {
    missing.push({
      path: "experiment_type",
      message: `experiment_type is required: one of ${EXPERIMENT_TYPES.join(", ")}`,
    });
  } else {
    const parsedType = parseExperimentType(rawType);
    if (parsedType) experimentType = parsedType;
    else {
      errors.push({
        path: "experiment_type",
        code: "invalid_experiment_type",
        message: `${
          typeof rawType === "string"
            ? `Unknown experiment_type ${JSON.stringify(rawType.slice(0, 100))}`
            : `experiment_type must be a string, not ${Array.isArray(rawType) ? "a list" : typeof rawType}`
        }: use one of ${EXPERIMENT_TYPES.join(", ")}`,
      });
    }
  }

  // Sections, each on its own.
  const sections: ParsedSections = {};
  for (const key of Object.keys(REQUEST_SECTION_SCHEMAS) as RequestSectionKey[]) {
    const value = raw(key);
    if (value === undefined) continue;
    const schema = REQUEST_SECTION_SCHEMAS[key] as z.ZodType;
    const parsed = schema.safeParse(value, { error: readableMessage });
    if (parsed.success) (sections as Record<string, unknown>)[key] = parsed.data;
    else errors.push(...toRequestErrors(parsed.error, [key]));
    for (const field of collectMissing(schema, value, [key])) {
      missing.push({
        path: formatPath(field.path),
        message: field.message ? capitalise(field.message) : fieldMessage(field.path, "is required"),
      });
    }
  }

  const protocolRaw = isPlainObject(raw("protocol"))
    ? (raw("protocol") as Record<string, unknown>)
    : undefined;
  const rawProtocolType = child(protocolRaw, "type");
  const protocolType = PROTOCOL_TYPES.find((t) => t === rawProtocolType) as ProtocolType | undefined;
  const customSent =
    raw("custom_protocol") !== undefined || child(protocolRaw, "custom_protocol") !== undefined;

  // Sections that do not belong to the type.
  if (experimentType) {
    const allowed = new Set<TypeSectionKey>(TYPE_SECTIONS[experimentType]);
    if (protocolType === "custom") allowed.add("custom_protocol");
    for (const key of Object.keys(TYPE_SECTION_SCHEMAS) as TypeSectionKey[]) {
      if (raw(key) === undefined || allowed.has(key)) continue;
      errors.push({
        path: key,
        code: "invalid_value",
        message:
          key === "custom_protocol"
            ? `A custom protocol applies to experiment_type CUSTOM or with protocol.type custom, not to ${experimentType}`
            : `Section ${key} does not apply to experiment_type ${experimentType} (its section is ${TYPE_SECTIONS[experimentType].join(" or ")})`,
      });
    }
    if (
      child(protocolRaw, "custom_protocol") !== undefined &&
      experimentType !== "CUSTOM" &&
      protocolType !== "custom"
    ) {
      errors.push({
        path: "protocol.custom_protocol",
        code: "invalid_value",
        message: `A custom protocol applies to experiment_type CUSTOM or with protocol.type custom, not to ${experimentType}`,
      });
    }
  }

  // Required fields of the request itself.
  if (raw("title") === undefined)
    missing.push({ path: "title", message: "title is required (5 to 200 characters)" });
  if (raw("hypothesis") === undefined) {
    missing.push({ path: "hypothesis", message: "hypothesis is required: at least hypothesis.statement" });
  }
  if (
    child(raw("turnaround_budget"), "budget_max_usd") === undefined &&
    child(raw("constraints"), "budget_max_usd") === undefined
  ) {
    missing.push({
      path: "turnaround_budget.budget_max_usd",
      message:
        "A budget is required: turnaround_budget.budget_max_usd (or constraints.budget_max_usd), 50 to 100000 USD",
    });
  }
  if (experimentType) {
    const present =
      TYPE_SECTIONS[experimentType].some((key) => raw(key) !== undefined) ||
      (experimentType === "CUSTOM" && child(protocolRaw, "custom_protocol") !== undefined);
    const designedByStaff = experimentType === "CUSTOM" && protocolType === "protocol_design_requested";
    if (!present && !designedByStaff) {
      missing.push({
        path: TYPE_SECTIONS[experimentType][0] as string,
        message: typeSectionMessage(experimentType),
      });
    }
  }

  // Protocol choice.
  if (protocolRaw) {
    const has = (key: string) => ownValue(protocolRaw, key) !== undefined;
    if (
      rawProtocolType === undefined &&
      ["template_id", "template_parameters", "custom_protocol", "protocol_design_brief"].some(has)
    ) {
      missing.push({
        path: "protocol.type",
        message:
          "protocol.type is required with a template, a custom protocol or a design brief: standard_template, custom or protocol_design_requested",
      });
    }
    if (protocolType === "standard_template" && !has("template_id")) {
      missing.push({
        path: "protocol.template_id",
        message: "protocol.template_id is required when protocol.type is standard_template",
      });
    }
    if (protocolType === "protocol_design_requested" && !has("protocol_design_brief")) {
      missing.push({
        path: "protocol.protocol_design_brief",
        message:
          "protocol.protocol_design_brief is required when protocol.type is protocol_design_requested: describe the goal",
      });
    }
    if (protocolType === "custom" && !customSent) {
      missing.push({
        path: "protocol.custom_protocol",
        message: "protocol.custom_protocol (or custom_protocol) is required when protocol.type is custom",
      });
    }
    if (protocolType !== undefined) {
      for (const key of ["template_id", "template_parameters"]) {
        if (has(key) && protocolType !== "standard_template") {
          errors.push({
            path: `protocol.${key}`,
            code: "invalid_value",
            message: `protocol.${key} applies only when protocol.type is standard_template (it is ${protocolType})`,
          });
        }
      }
      if (has("protocol_design_brief") && protocolType !== "protocol_design_requested") {
        errors.push({
          path: "protocol.protocol_design_brief",
          code: "invalid_value",
          message: `protocol.protocol_design_brief applies only when protocol.type is protocol_design_requested (it is ${protocolType})`,
        });
      }
      if (protocolType === "standard_template" && customSent) {
        errors.push({
          path: has("custom_protocol") ? "protocol.custom_protocol" : "custom_protocol",
          code: "invalid_value",
          message: "A custom protocol cannot be combined with protocol.type standard_template",
        });
      }
    }
  }

  // Custom protocol: a materials list (the rest of completeness is in the schema).
  if (customSent) {
    const materials = raw("materials_provided") ?? child(protocolRaw, "materials");
    if (!Array.isArray(materials) || materials.length === 0) {
      missing.push({
        path: "materials_provided",
        message: "A custom protocol needs a materials list: materials_provided (or protocol.materials)",
      });
    }
  }

  // Contact by webhook needs a webhook.
  if (
    child(raw("communication_preferences"), "preferred_contact") === "webhook" &&
    child(raw("communication_preferences"), "webhook_url") === undefined
  ) {
    missing.push({
      path: "communication_preferences.webhook_url",
      message: "communication_preferences.webhook_url is required when preferred_contact is webhook",
    });
  }

  // Stored form.
  const normalized = normalizeSections(sections, experimentType);
  errors.push(...normalized.errors);
  const { draft, paths } = normalized;

  // Custom protocol: step numbering and critical parameters.
  const custom = customProtocolProblems(draft.custom_protocol, paths.customProtocol ?? "custom_protocol");
  errors.push(...custom.errors);
  missing.push(...custom.missing);

  // Processed outputs must belong to the type.
  if (experimentType && sections.deliverables) {
    const allowed = new Set([...PROCESSED_OUTPUTS_BY_TYPE[experimentType], ...PROCESSED_OUTPUTS_ANY_TYPE]);
    sections.deliverables.required_processed_outputs.forEach((output, index) => {
      if (!allowed.has(output)) {
        errors.push({
          path: `deliverables.required_processed_outputs[${index}]`,
          code: "invalid_value",
          message: `${output} is not an output of ${experimentType}; allowed: ${[...allowed].join(", ")}`,
        });
      }
    });
  }

  // Hard deadline in the past.
  const deadline = draft.turnaround_budget.hard_deadline;
  const today = utcDate(options.now);
  if (deadline !== undefined && deadline < today) {
    if (options.mode === "submit") {
      errors.push({
        path: "turnaround_budget.hard_deadline",
        code: "invalid_value",
        message: `turnaround_budget.hard_deadline ${deadline} is in the past (today is ${today})`,
      });
    } else {
      warnings.push({
        path: "turnaround_budget.hard_deadline",
        code: "turnaround.deadline_in_past",
        message: `The hard deadline ${deadline} is in the past (today is ${today}).`,
        suggestion: "Set a future date before submitting.",
      });
    }
  }

  // Template parameters.
  const templateId = sections.protocol?.template_id;
  if (protocolType === "standard_template" && templateId !== undefined && options.checkTemplate) {
    for (const problem of options.checkTemplate(templateId, sections.protocol?.template_parameters ?? {})) {
      const path =
        problem.path === ""
          ? "protocol.template_parameters"
          : problem.path.startsWith("protocol.")
            ? problem.path
            : problem.path.startsWith("[")
              ? `protocol.template_parameters${problem.path}`
              : joinPath("protocol.template_parameters", problem.path);
      if (problem.code === "missing_required") missing.push({ path, message: problem.message });
      else errors.push({ ...problem, path });
    }
  }

  // Biosafety level.
  const bsl = normalizeBsl(child(raw("compliance"), "bsl"));
  if (bsl === "BSL-3" || bsl === "BSL-4") {
    safety.push({
      flag: "bsl_level_exceeded",
      path: "compliance.bsl",
      message: `${bsl} requested; Petri supports BSL-1 and BSL-2 only`,
    });
    errors.push({
      path: "compliance.bsl",
      code: "safety_violation",
      message: `${bsl} work is not accepted: Petri supports BSL-1 and BSL-2 only`,
    });
  }

  // Human subjects.
  const humanDerived =
    sections.compliance?.human_derived_material ??
    child(raw("compliance"), "human_derived_material") === true;
  for (const hit of findHumanSubjectPhrases(input, humanDerived, strings)) {
    safety.push({
      flag: "human_subjects",
      path: formatPath(hit.path),
      message: `The request appears to involve human subjects ("${hit.phrase}"); staff review it first`,
    });
  }

  // Warnings.
  const prose = strings
    .filter((s) => !s.isKey)
    .map((s) => s.text)
    .join("\n");
  warnings.push(
    ...runRules({
      draft,
      paths,
      ...(experimentType ? { experimentType } : {}),
      now: options.now,
      mentions: (pattern) => pattern.test(prose),
    }),
  );

  return finish({ errors, warnings, missing, safety, mode: options.mode, draft, experimentType });
}

function finish(state: {
  errors: RequestError[];
  warnings: RequestWarning[];
  missing: Missing[];
  safety: SafetyFinding[];
  mode: ValidationMode;
  draft?: NormalizedDraft;
  experimentType?: ExperimentType;
}): ValidationResult {
  const { warnings, safety, mode, draft } = state;
  const errors = [...state.errors];
  const missing = dedupe(state.missing);
  if (mode === "submit") {
    errors.push(
      ...missing.map((m) => ({ path: m.path, code: "missing_required" as const, message: m.message })),
    );
  } else {
    warnings.unshift(
      ...missing.map((m) => ({
        path: m.path,
        code: "missing_required",
        message: m.message,
        suggestion: "Fill this in before submitting the request.",
      })),
    );
  }

  const rejecting = safety.filter(
    (f) => f.flag === "bsl_level_exceeded" || f.flag === "controlled_substance",
  );
  if (rejecting.length > 0) {
    const reasons = [
      ...new Set(
        rejecting.map((f) =>
          f.flag === "bsl_level_exceeded" ? "biosafety level above BSL-2" : "controlled substance",
        ),
      ),
    ];
    safety.push({ flag: "safety_rejected", path: "", message: `Rejected for safety: ${reasons.join(", ")}` });
  }
  const present = new Set(safety.map((f) => f.flag));
  const safetyFlags = FLAG_ORDER.filter((flag) => present.has(flag));

  const finalErrors = dedupe(errors);
  const valid = finalErrors.length === 0;
  const result: ValidationResult = {
    valid,
    errors: finalErrors,
    warnings: dedupe(warnings),
    safety,
    safety_flags: safetyFlags,
    review_reasons: draft ? reviewReasons(draft, state.experimentType, present.has("human_subjects")) : [],
  };
  if (valid && draft) {
    result.draft = draft;
    if (missing.length === 0 && state.experimentType) result.request = draft as unknown as NormalizedRequest;
  }
  return result;
}

function dedupe<T extends { path: string; message: string; code?: string }>(items: readonly T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = `${item.code ?? ""}\u0000${item.path}\u0000${item.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function reviewReasons(
  draft: NormalizedDraft,
  type: ExperimentType | undefined,
  humanSubjects: boolean,
): ReviewReason[] {
  const reasons = new Set<ReviewReason>();
  if (draft.protocol?.type === "protocol_design_requested") reasons.add("protocol_design_requested");
  if (type === "CUSTOM" || draft.protocol?.type === "custom" || draft.custom_protocol !== undefined)
    reasons.add("custom_protocol");
  if (draft.compliance.bsl === "BSL-2" && draft.compliance.human_derived_material)
    reasons.add("bsl2_human_derived_material");
  const { compliance } = draft;
  if (
    compliance.hazardous_chemicals ||
    compliance.export_control_or_sanctions_risk ||
    (compliance.hazard_notes ?? "").trim() !== "" ||
    draft.materials_provided.some((m) => m?.hazardous === true)
  ) {
    reasons.add("flagged_hazard");
  }
  if (humanSubjects) reasons.add("human_subjects");
  return REVIEW_ORDER.filter((r) => reasons.has(r));
}
