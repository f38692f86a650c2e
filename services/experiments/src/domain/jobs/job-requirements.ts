/**
 * JobRequirements: what an operator needs to take a request, derived from the request alone.
 * The marketplace builds its job feed from it (event-carried in every experiments event) and
 * the claim check runs the shared eligibility rule (@petri/contracts) against it, so both
 * read one derivation. Pure and lenient: it accepts the stored (normalised) request and also
 * a partial body as POST /estimate receives it, with either spelling of the fields that have
 * two (D19), and never throws.
 *
 * - bsl_level: "BSL-1"/"BSL-2" (the stored spelling); BSL-1 when unstated. A level above 2
 *   keeps its spelling ("BSL-3"), which no lab passes.
 * - needs_*: compliance.human_derived_material / animal_derived_material /
 *   hazardous_chemicals; hazardous chemicals also when any provided material is hazardous.
 * - equipment_required: the custom protocol's equipment marked required (custom_protocol, or
 *   protocol.custom_protocol in a body as sent), and nothing else. A standard assay's equipment
 *   is part of the competency staff verify for its type; the catalogue templates describe it
 *   in prose ("incubator at 35 ± 2 °C (ambient air)") that no lab's equipment list would
 *   match word for word, so making it a hard filter would hide every job (decisions.md D37).
 *   The template (named, else the type's reference template) gives the category.
 * - budget_cents: turnaround_budget.budget_max_usd (or constraints.budget_max_usd); 0 = none.
 * - deadline: turnaround_budget.hard_deadline (YYYY-MM-DD); "" = none.
 * - menu_tags: the assay variants the intake names that labs list as menu tags
 *   (docs/intake-model.md): qpcr_<chemistry>, mic_<method>, viability_<plate format>.
 * - custom_protocol: the request brings (or asks staff to design) its own protocol; implied for CUSTOM.
 * - category: the template's category ("" for CUSTOM without a template).
 */
import type { EligibilityJob } from "@petri/contracts";
import {
  EXPERIMENT_TYPES,
  type ExperimentTypeName,
  PRIVACY_LEVELS,
  type PrivacyLevelName,
  TURNAROUND_PRIORITIES,
  type TurnaroundPriorityName,
} from "@petri/contracts/vocabulary";
import { usdToCents } from "../estimate/index.js";
import { type ProtocolTemplate, TEMPLATES, getTemplate, normalizeBslLevel } from "../templates/index.js";

export interface JobRequirements extends EligibilityJob {
  experimentType: string;
  bslLevel: string;
  needsHumanSamplesApproval: boolean;
  needsAnimalSamplesApproval: boolean;
  needsHazardousChemicalsApproval: boolean;
  equipmentRequired: string[];
  /** The requester's ceiling in cents; 0 when none is stated. */
  budgetCents: number;
  /** YYYY-MM-DD, or "" when none. */
  deadline: string;
  priority: TurnaroundPriorityName;
  /** 0 when none is stated. */
  desiredTurnaroundDays: number;
  menuTags: string[];
  customProtocol: boolean;
  /** A template category, or "". */
  category: string;
  privacy: PrivacyLevelName;
}

type Rec = Record<string, unknown>;

const rec = (v: unknown): Rec | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Rec) : undefined;

/** Own properties only, so "__proto__" or "constructor" never reach the prototype. */
function at(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    const object = rec(current);
    if (!object || !Object.prototype.hasOwnProperty.call(object, key)) return undefined;
    current = object[key];
  }
  return current;
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function firstDefined(...values: unknown[]): unknown {
  return values.find((v) => v !== undefined && v !== null);
}

function oneOf<T extends string>(allowed: readonly T[], value: unknown): T | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.trim().toLowerCase();
  return allowed.find((a) => a === text);
}

function experimentTypeOf(request: unknown): ExperimentTypeName | undefined {
  const value = at(request, "experiment_type");
  if (typeof value !== "string") return undefined;
  const upper = value.trim().toUpperCase();
  return EXPERIMENT_TYPES.find((type) => type === upper);
}

/** The template a request names (when it is of the request's type), else the type's reference one. */
export function templateFor(
  experimentType: ExperimentTypeName | undefined,
  templateId: unknown,
): ProtocolTemplate | undefined {
  const named = getTemplate(templateId);
  if (named && (experimentType === undefined || named.experiment_type === experimentType)) return named;
  if (experimentType === undefined || experimentType === "CUSTOM") return undefined;
  return TEMPLATES.find((t) => t.experiment_type === experimentType);
}

function customProtocolOf(request: unknown): Rec | undefined {
  return rec(at(request, "custom_protocol")) ?? rec(at(request, "protocol", "custom_protocol"));
}

function requiredEquipment(customProtocol: Rec): string[] {
  const names = list(customProtocol.equipment_required)
    .map(rec)
    .filter((item): item is Rec => item !== undefined && item.required !== false)
    .map((item) => item.name)
    .filter((name): name is string => typeof name === "string" && name.trim() !== "")
    .map((name) => name.trim());
  return [...new Set(names)];
}

function hazardousMaterials(request: unknown): boolean {
  const materials = [
    ...list(at(request, "materials_provided")),
    ...list(at(request, "protocol", "materials")),
  ];
  return materials.some((m) => at(m, "hazardous") === true);
}

function budgetCents(request: unknown): number {
  const usd = firstDefined(
    at(request, "turnaround_budget", "budget_max_usd"),
    at(request, "constraints", "budget_max_usd"),
  );
  return typeof usd === "number" && Number.isFinite(usd) && usd > 0 ? usdToCents(usd) : 0;
}

function turnaroundDays(request: unknown): number {
  const days = firstDefined(
    at(request, "turnaround_budget", "desired_turnaround_days"),
    at(request, "turnaround_days"),
    at(request, "turnaround_budget", "max_days"),
  );
  return typeof days === "number" && Number.isInteger(days) && days > 0 ? days : 0;
}

function hardDeadline(request: unknown): string {
  const date = at(request, "turnaround_budget", "hard_deadline");
  return typeof date === "string" && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : "";
}

/** The assay variants docs/intake-model.md names as lab menu tags. */
function menuTags(request: unknown, experimentType: ExperimentTypeName | undefined): string[] {
  const tag = (prefix: string, value: unknown) =>
    typeof value === "string" && value.trim() !== ""
      ? [
          `${prefix}_${value
            .trim()
            .toLowerCase()
            .replace(/[^a-z0-9]+/g, "_")}`,
        ]
      : [];
  switch (experimentType) {
    case "QPCR_EXPRESSION":
      return tag("qpcr", at(request, "qpcr", "chemistry"));
    case "MIC_MBC_ASSAY":
      return tag("mic", at(request, "mic_mbc", "method"));
    case "CELL_VIABILITY_IC50":
      return tag("viability", at(request, "cell_viability", "plate_format"));
    default:
      return [];
  }
}

/** The job requirements of a request (stored form or a partial body); never throws. */
export function jobRequirementsOf(request: unknown): JobRequirements {
  const experimentType = experimentTypeOf(request);
  const compliance = (field: string) => at(request, "compliance", field) === true;
  const customProtocol = customProtocolOf(request);
  const protocolType = at(request, "protocol", "type");
  const template = templateFor(experimentType, at(request, "protocol", "template_id"));
  const equipment = customProtocol ? requiredEquipment(customProtocol) : [];
  return {
    experimentType: experimentType ?? "",
    bslLevel: normalizeBslLevel(at(request, "compliance", "bsl")) ?? "BSL-1",
    needsHumanSamplesApproval: compliance("human_derived_material"),
    needsAnimalSamplesApproval: compliance("animal_derived_material"),
    needsHazardousChemicalsApproval: compliance("hazardous_chemicals") || hazardousMaterials(request),
    equipmentRequired: equipment,
    budgetCents: budgetCents(request),
    deadline: hardDeadline(request),
    priority:
      oneOf(
        TURNAROUND_PRIORITIES,
        firstDefined(at(request, "turnaround_budget", "priority"), at(request, "turnaround_priority")),
      ) ?? "standard",
    desiredTurnaroundDays: turnaroundDays(request),
    menuTags: menuTags(request, experimentType),
    customProtocol:
      experimentType === "CUSTOM" ||
      customProtocol !== undefined ||
      protocolType === "custom" ||
      protocolType === "protocol_design_requested",
    category: template?.category ?? "",
    privacy: oneOf(PRIVACY_LEVELS, at(request, "privacy")) ?? "open",
  };
}
