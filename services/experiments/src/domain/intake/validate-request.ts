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
 * 5. Cross-field rules (./checks/): the type's section, sections of other types, protocol
 *    choice, custom protocol completeness (./custom-protocol.ts), processed outputs per type,
 *    contact by webhook, hard deadline.
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
import type { RequestError } from "../contracts.js";
import { checkExperimentType } from "./checks/experiment-type.js";
import { checkHardDeadline, checkProcessedOutputs, checkTemplateParameters } from "./checks/draft-checks.js";
import { emptyFindings } from "./checks/findings.js";
import { checkCustomProtocolMaterials, checkProtocolChoice } from "./checks/protocol-choice.js";
import { readRawRequest } from "./checks/raw-request.js";
import {
  checkBiosafetyLevel,
  checkControlledSubstances,
  checkScanLimits,
  flagHumanSubjects,
} from "./checks/safety.js";
import {
  checkForeignTypeSections,
  checkRequiredFields,
  checkUnknownFields,
  checkWebhookContact,
  parseSections,
} from "./checks/sections.js";
import { customProtocolProblems } from "./custom-protocol.js";
import { normalizeSections } from "./normalize.js";
import { child, isPlainObject } from "./paths.js";
import { runRules } from "./rules/index.js";
import { walkStrings } from "./safety/walk.js";
import { validationResult, type ValidationMode, type ValidationResult } from "./validation-result.js";

export { parseExperimentType } from "./checks/experiment-type.js";
export type { ValidationMode, ValidationResult } from "./validation-result.js";

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

// Each check (./checks/) appends to `findings`; the order of the calls below is the order of the
// errors and warnings in the result, so it is part of the behaviour.
export function validateExperimentRequest(input: unknown, options: ValidateOptions): ValidationResult {
  const findings = emptyFindings();
  const walked = walkStrings(input);
  checkScanLimits(walked, findings);
  checkControlledSubstances(input, walked, findings);
  if (!isPlainObject(input)) {
    findings.errors.push({
      path: "",
      code: "invalid_value",
      message: "The request body must be a JSON object",
    });
    return validationResult(findings, { mode: options.mode });
  }

  const request = readRawRequest(input);
  checkUnknownFields(request, findings);
  const experimentType = checkExperimentType(request.get("experiment_type"), findings);
  const sections = parseSections(request, findings);
  if (experimentType) checkForeignTypeSections(request, experimentType, findings);
  checkRequiredFields(request, experimentType, findings);
  checkProtocolChoice(request, findings);
  checkCustomProtocolMaterials(request, findings);
  checkWebhookContact(request, findings);

  const normalized = normalizeSections(sections, experimentType);
  findings.errors.push(...normalized.errors);
  const { draft, paths } = normalized;
  const custom = customProtocolProblems(draft.custom_protocol, paths.customProtocol ?? "custom_protocol");
  findings.errors.push(...custom.errors);
  findings.missing.push(...custom.missing);
  checkProcessedOutputs(experimentType, sections, findings);
  checkHardDeadline(draft, options.now, options.mode, findings);
  checkTemplateParameters(request.protocolType, sections, options.checkTemplate, findings);

  checkBiosafetyLevel(child(request.get("compliance"), "bsl"), findings);
  const humanDerived =
    sections.compliance?.human_derived_material ??
    child(request.get("compliance"), "human_derived_material") === true;
  flagHumanSubjects(input, humanDerived, walked, findings);

  const prose = walked.strings
    .filter((s) => !s.isKey)
    .map((s) => s.text)
    .join("\n");
  findings.warnings.push(
    ...runRules({
      draft,
      paths,
      ...(experimentType ? { experimentType } : {}),
      now: options.now,
      mentions: (pattern) => pattern.test(prose),
    }),
  );

  return validationResult(findings, { mode: options.mode, draft, experimentType });
}
