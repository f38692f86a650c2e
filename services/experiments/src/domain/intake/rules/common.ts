/**
 * Rules for every experiment type: replicates (docs/api.md replicate guidance), budget against the
 * typical price bands (docs/intake-model.md), acceptance criteria, deadline, hazard declarations.
 */
import type { RequestWarning } from "../../contracts.js";
import { TYPICAL_PRICE_BANDS_USD } from "../model.js";
import { warning, type Rule } from "./context.js";

/** docs/api.md: technical replicates minimum 3 (typical 3-6); biological minimum 1, recommended 3. */
export const lowReplicates: Rule = ({ draft, paths }) => {
  const out: RequestWarning[] = [];
  const { technical, biological } = draft.replicates;
  if (technical < 3) {
    out.push(
      warning(
        paths.technical ?? "replicates.technical",
        "low_replicates",
        `${technical} technical replicate${technical === 1 ? "" : "s"}: the minimum is 3 (typical 3-6).`,
        "Use at least 3 technical replicates so the lab can report a mean and spread; 3 biological replicates are recommended.",
      ),
    );
  }
  if (biological < 1) {
    out.push(
      warning(
        paths.biological ?? "replicates.biological",
        "low_replicates",
        "No biological replicate: the minimum is 1 (3 recommended).",
        "Ask for at least 1 biological replicate, preferably 3 independent ones.",
      ),
    );
  }
  return out;
};

export const budgetBand: Rule = ({ draft, paths, experimentType }) => {
  const budget = draft.turnaround_budget.budget_max_usd;
  if (budget === undefined || experimentType === undefined) return [];
  const band = TYPICAL_PRICE_BANDS_USD[experimentType];
  if (!band) return [];
  const path = paths.budget ?? "turnaround_budget.budget_max_usd";
  if (budget < band.low) {
    return [
      warning(
        path,
        "budget.below_typical_range",
        `A budget of ${budget} USD is below the typical ${band.low}-${band.high} USD for ${experimentType}; few labs may take it.`,
        `Raise budget_max_usd to at least ${band.low} USD, allow budget_flexibility, or reduce the scope. POST /estimate prices the request.`,
      ),
    ];
  }
  if (budget > band.high) {
    return [
      warning(
        path,
        "budget.above_typical_range",
        `A budget of ${budget} USD is above the typical ${band.low}-${band.high} USD for ${experimentType}.`,
        "That is fine for a larger design (many samples, compounds or replicates); otherwise check the amount. POST /estimate prices the request.",
      ),
    ];
  }
  return [];
};

export const acceptanceCriteria: Rule = ({ draft }) => {
  if ((draft.acceptance_criteria.success_conditions ?? []).length > 0) return [];
  return [
    warning(
      "acceptance_criteria.success_conditions",
      "acceptance.no_success_conditions",
      "No success conditions: disputes are resolved against the acceptance criteria, and there are none.",
      "Add success_conditions {metric, operator, threshold, unit}, e.g. an IC50 below a threshold or a MIC at most a value.",
    ),
  ];
};

function addDays(date: Date, days: number): string {
  const copy = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  copy.setUTCDate(copy.getUTCDate() + days);
  return copy.toISOString().slice(0, 10);
}

export const deadlineVersusTurnaround: Rule = ({ draft, now, paths }) => {
  const { hard_deadline: deadline, desired_turnaround_days: days } = draft.turnaround_budget;
  if (deadline === undefined || days === undefined || Number.isNaN(now.getTime())) return [];
  const earliest = addDays(now, days);
  if (deadline >= earliest) return [];
  return [
    warning(
      "turnaround_budget.hard_deadline",
      "turnaround.deadline_before_turnaround",
      `The hard deadline ${deadline} falls before the requested turnaround of ${days} days (${earliest}).`,
      `Move the deadline, shorten ${paths.turnaroundDays ?? "turnaround_budget.desired_turnaround_days"}, or raise the priority.`,
    ),
  ];
};

export const hazardDeclarations: Rule = ({ draft, paths }) => {
  const out: RequestWarning[] = [];
  const { compliance } = draft;
  const hazardousIndex = draft.materials_provided.findIndex((m) => m?.hazardous === true);
  if (hazardousIndex >= 0 && !compliance.hazardous_chemicals) {
    out.push(
      warning(
        `${paths.materials}[${hazardousIndex}].hazardous`,
        "compliance.hazardous_material_undeclared",
        "A material is marked hazardous but compliance.hazardous_chemicals is false.",
        "Set compliance.hazardous_chemicals to true and describe the hazard in compliance.hazard_notes.",
      ),
    );
  }
  if ((compliance.hazardous_chemicals || hazardousIndex >= 0) && !compliance.sds_attached) {
    out.push(
      warning(
        "compliance.sds_attached",
        "compliance.sds_missing",
        "Hazardous chemicals are declared but no safety data sheet is attached.",
        "Attach the SDS of each hazardous material and set compliance.sds_attached to true.",
      ),
    );
  }
  return out;
};

export const agentIdentifier: Rule = ({ draft }) => {
  if (draft.metadata.submitter_type !== "ai_agent" || draft.metadata.agent_identifier) return [];
  return [
    warning(
      "metadata.agent_identifier",
      "metadata.agent_identifier_missing",
      "The request comes from an AI agent but names no agent_identifier.",
      "Set metadata.agent_identifier (agent name and version) so results can be traced to the agent.",
    ),
  ];
};

/**
 * A field sent under another marketplace's name (e.g. statistical_requirements.test): it was
 * accepted and stored under ours; the warning tells the client which name to send.
 */
export const aliasSpellings: Rule = ({ paths }) =>
  paths.aliases.map(({ sent, stored }) =>
    warning(
      sent,
      "request.alias_normalised",
      `${sent} is read as ${stored} and stored under that name.`,
      `Send ${stored}; ${sent} is accepted for clients written against another marketplace's schema.`,
    ),
  );
