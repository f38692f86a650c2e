/**
 * Folds the parsed sections into the one stored form (see model.ts for the list of spellings).
 *
 * Where one thing is sent in two places, both values must agree: equal values are accepted
 * (sent twice), different values are `invalid_value` at the second place, naming the first.
 * Paths recorded in `SourcePaths` point at where each value was actually sent, so warnings
 * about it can name the field the client wrote.
 */
import type { z } from "zod";

import type { ExperimentTypeName } from "@petri/contracts/vocabulary";
import type { RequestError } from "../contracts.js";
import { normalizeBsl, type SupportedBslLevel } from "./bsl.js";
import type { CustomProtocol, NormalizedDraft, NormalizedProtocol } from "./model.js";
import type { StatisticalTest } from "./schema/common.js";
import type { REQUEST_SECTION_SCHEMAS, RequestSectionKey } from "./schema/request.js";
import type { customProtocolSchema } from "./schema/protocol.js";
import { pick, unique } from "./spellings.js";

export type ParsedSections = {
  [K in RequestSectionKey]?: z.output<(typeof REQUEST_SECTION_SCHEMAS)[K]>;
};

export interface SourcePaths {
  budget?: string;
  turnaroundDays?: string;
  priority?: string;
  flexibility?: string;
  technical?: string;
  biological?: string;
  /** Where the custom protocol was sent: "custom_protocol" or "protocol.custom_protocol". */
  customProtocol?: string;
  /** Where the materials list was sent: "materials_provided" or "protocol.materials". */
  materials: string;
  /**
   * Fields sent under another marketplace's name for one of ours: accepted and stored under
   * ours, and each reported as a warning so that the client can move to our name.
   */
  aliases: Array<{ sent: string; stored: string }>;
}

export interface NormalizeResult {
  draft: NormalizedDraft;
  paths: SourcePaths;
  errors: RequestError[];
}

type ParsedCustomProtocol = z.output<typeof customProtocolSchema>;

const TYPE_KEYS = [
  "sanger",
  "qpcr",
  "cell_viability",
  "enzyme_inhibition",
  "microbial_growth",
  "mic_mbc",
  "mic_mbc_assay",
  "zone_of_inhibition",
] as const;

function normalizeCustomProtocol(
  raw: ParsedCustomProtocol,
  at: string,
  errors: RequestError[],
): CustomProtocol {
  const { title, version, ...rest } = raw;
  const protocolTitle = pick<string>(
    [
      [`${at}.protocol_title`, raw.protocol_title],
      [`${at}.title`, title],
    ],
    errors,
  ).value;
  const protocolVersion = pick<string>(
    [
      [`${at}.protocol_version`, raw.protocol_version],
      [`${at}.version`, version],
    ],
    errors,
  ).value;
  const { protocol_title: _title, protocol_version: _version, ...others } = rest;
  return {
    ...(protocolTitle !== undefined ? { protocol_title: protocolTitle } : {}),
    ...(protocolVersion !== undefined ? { protocol_version: protocolVersion } : {}),
    ...others,
  } as CustomProtocol;
}

export function normalizeSections(
  sections: ParsedSections,
  experimentType?: ExperimentTypeName,
): NormalizeResult {
  const errors: RequestError[] = [];
  const paths: SourcePaths = { materials: "materials_provided", aliases: [] };
  // The order of these calls is the order of the conflict errors they report.
  const turnaround = normalizeTurnaroundBudget(sections, errors, paths);
  const replicates = normalizeReplicates(sections, errors, paths);
  const materials = pick(
    [
      ["materials_provided", sections.materials_provided],
      ["protocol.materials", sections.protocol?.materials],
    ],
    errors,
  );
  if (materials.path) paths.materials = materials.path;
  const customProtocol = pickCustomProtocol(sections, errors, paths);
  const hypothesis = normalizeHypothesis(sections, errors);
  const acceptance = normalizeAcceptanceCriteria(sections, errors, paths);
  const deliverables = sections.deliverables ?? DEFAULT_DELIVERABLES;
  const communication = { ...(sections.communication_preferences ?? {}) };
  if (communication.notification_events)
    communication.notification_events = unique(communication.notification_events);
  const protocol = normalizeProtocolChoice(sections);

  // Key order of the stored form: identity, common sections, then the type section.
  const draft: NormalizedDraft = {
    ...(experimentType !== undefined ? { experiment_type: experimentType } : {}),
    metadata: sections.metadata ?? { submitter_type: "human", tags: [], language: "en" },
    ...(sections.title !== undefined ? { title: sections.title } : {}),
    ...(hypothesis !== undefined ? { hypothesis } : {}),
    compliance: normalizeCompliance(sections),
    turnaround_budget: turnaround,
    deliverables: {
      ...deliverables,
      raw_data_formats: unique(deliverables.raw_data_formats),
      required_processed_outputs: unique(deliverables.required_processed_outputs),
    },
    privacy: sections.privacy ?? "open",
    ...(protocol !== undefined ? { protocol } : {}),
    materials_provided: materials.value ?? [],
    replicates,
    acceptance_criteria: acceptance,
    communication_preferences: communication,
    ...(customProtocol !== undefined ? { custom_protocol: customProtocol } : {}),
  };
  for (const key of TYPE_KEYS) {
    const section = sections[key];
    if (section !== undefined) (draft as unknown as Record<string, unknown>)[key] = section;
  }

  return { draft, paths, errors };
}

const DEFAULT_DELIVERABLES: NonNullable<ParsedSections["deliverables"]> = {
  minimum_package_level: "L1_BASIC_QC",
  raw_data_formats: ["CSV"],
  required_processed_outputs: [],
  photo_documentation: "key_steps",
  lab_notebook_scan: true,
};

function normalizeTurnaroundBudget(
  sections: ParsedSections,
  errors: RequestError[],
  paths: SourcePaths,
): NormalizedDraft["turnaround_budget"] {
  const tb = sections.turnaround_budget;
  const constraints = sections.constraints;
  const budget = pick<number>(
    [
      ["turnaround_budget.budget_max_usd", tb?.budget_max_usd],
      ["constraints.budget_max_usd", constraints?.budget_max_usd],
    ],
    errors,
  );
  const flexibility = pick(
    [
      ["turnaround_budget.budget_flexibility", tb?.budget_flexibility],
      ["constraints.budget_flexibility", constraints?.budget_flexibility],
    ],
    errors,
  );
  const days = pick<number>(
    [
      ["turnaround_budget.desired_turnaround_days", tb?.desired_turnaround_days],
      ["turnaround_budget.max_days", tb?.max_days],
      ["turnaround_days", sections.turnaround_days],
      ["constraints.turnaround_days", constraints?.turnaround_days],
    ],
    errors,
  );
  const priority = pick(
    [
      ["turnaround_budget.priority", tb?.priority],
      ["turnaround_priority", sections.turnaround_priority],
      ["constraints.turnaround_priority", constraints?.turnaround_priority],
    ],
    errors,
  );
  if (budget.path) paths.budget = budget.path;
  if (days.path) paths.turnaroundDays = days.path;
  if (priority.path) paths.priority = priority.path;
  if (flexibility.path) paths.flexibility = flexibility.path;

  return {
    ...(budget.value !== undefined ? { budget_max_usd: budget.value } : {}),
    ...(days.value !== undefined ? { desired_turnaround_days: days.value } : {}),
    ...(tb?.hard_deadline !== undefined ? { hard_deadline: tb.hard_deadline } : {}),
    budget_flexibility: flexibility.value ?? "strict",
    priority: priority.value ?? "standard",
  };
}

function normalizeReplicates(
  sections: ParsedSections,
  errors: RequestError[],
  paths: SourcePaths,
): NormalizedDraft["replicates"] {
  const top = sections.replicates;
  const inner = sections.protocol?.replicates;
  const technical = pick<number>(
    [
      ["replicates.technical", top?.technical],
      ["replicates.technical_replicates", top?.technical_replicates],
      ["protocol.replicates.technical", inner?.technical],
      ["protocol.replicates.technical_replicates", inner?.technical_replicates],
    ],
    errors,
  );
  const biological = pick<number>(
    [
      ["replicates.biological", top?.biological],
      ["replicates.biological_replicates", top?.biological_replicates],
      ["protocol.replicates.biological", inner?.biological],
      ["protocol.replicates.biological_replicates", inner?.biological_replicates],
    ],
    errors,
  );
  if (technical.path) paths.technical = technical.path;
  if (biological.path) paths.biological = biological.path;
  return { technical: technical.value ?? 3, biological: biological.value ?? 1 };
}

function pickCustomProtocol(
  sections: ParsedSections,
  errors: RequestError[],
  paths: SourcePaths,
): CustomProtocol | undefined {
  const protocol = sections.protocol;
  const topCustom = sections.custom_protocol
    ? normalizeCustomProtocol(sections.custom_protocol, "custom_protocol", errors)
    : undefined;
  const innerCustom = protocol?.custom_protocol
    ? normalizeCustomProtocol(protocol.custom_protocol, "protocol.custom_protocol", errors)
    : undefined;
  const custom = pick<CustomProtocol>(
    [
      ["custom_protocol", topCustom],
      ["protocol.custom_protocol", innerCustom],
    ],
    errors,
  );
  if (custom.path) paths.customProtocol = custom.path;
  return custom.value;
}

function normalizeHypothesis(
  sections: ParsedSections,
  errors: RequestError[],
): NormalizedDraft["hypothesis"] | undefined {
  if (!sections.hypothesis) return undefined;
  const { why_interesting, rationale: sentRationale, prior_work, ...head } = sections.hypothesis;
  const rationale = pick<string>(
    [
      ["hypothesis.rationale", sentRationale],
      ["hypothesis.why_interesting", why_interesting],
    ],
    errors,
  ).value;
  return { ...head, ...(rationale !== undefined ? { rationale } : {}), prior_work };
}

function normalizeAcceptanceCriteria(
  sections: ParsedSections,
  errors: RequestError[],
  paths: SourcePaths,
): NormalizedDraft["acceptance_criteria"] {
  if (!sections.acceptance_criteria) return { success_conditions: [], failure_conditions: [] };
  const { statistical_requirements: stats, ...conditions } = sections.acceptance_criteria;
  if (!stats) return conditions;
  const at = "acceptance_criteria.statistical_requirements";
  const before = errors.length;
  const test = pick<StatisticalTest>(
    [
      [`${at}.statistical_test`, stats.statistical_test],
      [`${at}.test`, stats.test],
    ],
    errors,
  );
  if (stats.test !== undefined && errors.length === before)
    paths.aliases.push({ sent: `${at}.test`, stored: `${at}.statistical_test` });
  return {
    ...conditions,
    statistical_requirements: {
      significance_level: stats.significance_level,
      ...(test.value !== undefined ? { statistical_test: test.value } : {}),
      ...(stats.power !== undefined ? { power: stats.power } : {}),
    },
  };
}

function normalizeCompliance(sections: ParsedSections): NormalizedDraft["compliance"] {
  const compliance = sections.compliance;
  const bsl = (compliance?.bsl !== undefined ? normalizeBsl(compliance.bsl) : null) ?? "BSL-1";
  return {
    // BSL-3 and above never reach a stored form (they are rejected); the cast is safe there.
    bsl: bsl as SupportedBslLevel,
    human_derived_material: compliance?.human_derived_material ?? false,
    animal_derived_material: compliance?.animal_derived_material ?? false,
    hazardous_chemicals: compliance?.hazardous_chemicals ?? false,
    sds_attached: compliance?.sds_attached ?? false,
    export_control_or_sanctions_risk: compliance?.export_control_or_sanctions_risk ?? false,
    ...(compliance?.hazard_notes !== undefined ? { hazard_notes: compliance.hazard_notes } : {}),
  };
}

/** The protocol choice (type, template, design brief); undefined when none of it was sent. */
function normalizeProtocolChoice(sections: ParsedSections): Partial<NormalizedProtocol> | undefined {
  const protocol = sections.protocol;
  if (!protocol) return undefined;
  const candidate: Partial<NormalizedProtocol> = {};
  if (protocol.type !== undefined) candidate.type = protocol.type;
  if (protocol.template_id !== undefined) candidate.template_id = protocol.template_id;
  if (protocol.template_parameters !== undefined)
    candidate.template_parameters = protocol.template_parameters;
  if (protocol.protocol_design_brief !== undefined)
    candidate.protocol_design_brief = protocol.protocol_design_brief;
  return Object.keys(candidate).length > 0 ? candidate : undefined;
}
