/**
 * Checks on the normalised request: processed outputs of the type, a hard deadline in the past,
 * and the template's own parameter checks.
 */
import type { ExperimentTypeName } from "@petri/contracts/vocabulary";
import type { RequestError } from "../../contracts.js";
import { PROCESSED_OUTPUTS_ANY_TYPE, PROCESSED_OUTPUTS_BY_TYPE, type NormalizedDraft } from "../model.js";
import type { ParsedSections } from "../normalize.js";
import { joinPath } from "../paths.js";
import type { ProtocolType } from "../schema/common.js";
import type { ValidationMode } from "../validation-result.js";
import type { Findings } from "./findings.js";

export function checkProcessedOutputs(
  type: ExperimentTypeName | undefined,
  sections: ParsedSections,
  findings: Findings,
): void {
  if (!type || !sections.deliverables) return;
  const allowed = new Set([...PROCESSED_OUTPUTS_BY_TYPE[type], ...PROCESSED_OUTPUTS_ANY_TYPE]);
  sections.deliverables.required_processed_outputs.forEach((output, index) => {
    if (!allowed.has(output)) {
      findings.errors.push({
        path: `deliverables.required_processed_outputs[${index}]`,
        code: "invalid_value",
        message: `${output} is not an output of ${type}; allowed: ${[...allowed].join(", ")}`,
      });
    }
  });
}

/** A deadline in the past is an error on submit, a warning on a draft (it can still be moved). */
export function checkHardDeadline(
  draft: NormalizedDraft,
  now: Date,
  mode: ValidationMode,
  findings: Findings,
): void {
  const deadline = draft.turnaround_budget.hard_deadline;
  const today = utcDate(now);
  if (deadline === undefined || deadline >= today) return;
  if (mode === "submit") {
    findings.errors.push({
      path: "turnaround_budget.hard_deadline",
      code: "invalid_value",
      message: `turnaround_budget.hard_deadline ${deadline} is in the past (today is ${today})`,
    });
  } else {
    findings.warnings.push({
      path: "turnaround_budget.hard_deadline",
      code: "turnaround.deadline_in_past",
      message: `The hard deadline ${deadline} is in the past (today is ${today}).`,
      suggestion: "Set a future date before submitting.",
    });
  }
}

export type TemplateCheck = (templateId: string, parameters: Record<string, unknown>) => RequestError[];

/** Runs the template's parameter check and places its paths under protocol.template_parameters. */
export function checkTemplateParameters(
  protocolType: ProtocolType | undefined,
  sections: ParsedSections,
  checkTemplate: TemplateCheck | undefined,
  findings: Findings,
): void {
  const templateId = sections.protocol?.template_id;
  if (protocolType !== "standard_template" || templateId === undefined || !checkTemplate) return;
  for (const problem of checkTemplate(templateId, sections.protocol?.template_parameters ?? {})) {
    const path = templateParameterPath(problem.path);
    if (problem.code === "missing_required") findings.missing.push({ path, message: problem.message });
    else findings.errors.push({ ...problem, path });
  }
}

function templateParameterPath(path: string): string {
  if (path === "") return "protocol.template_parameters";
  if (path.startsWith("protocol.")) return path;
  if (path.startsWith("[")) return `protocol.template_parameters${path}`;
  return joinPath("protocol.template_parameters", path);
}

function utcDate(now: Date): string {
  return Number.isNaN(now.getTime()) ? "0000-00-00" : now.toISOString().slice(0, 10);
}
