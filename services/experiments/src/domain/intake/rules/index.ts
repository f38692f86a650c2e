/**
 * The warning rules and their catalogue. A warning never makes a request invalid (docs/api.md);
 * codes are stable and documented here with their source.
 */
import type { RequestWarning } from "../../contracts.js";
import {
  agentIdentifier,
  aliasSpellings,
  acceptanceCriteria,
  budgetBand,
  deadlineVersusTurnaround,
  hazardDeclarations,
  lowReplicates,
} from "./common.js";
import type { Rule, RuleContext } from "./context.js";
import { cellViabilityRules, enzymeInhibitionRules } from "./dose-response.js";
import { customProtocolRules, growthRules } from "./growth-custom.js";
import { micRules, zoneRules } from "./mic.js";
import { qpcrRules, sangerRules } from "./molecular.js";

export type { RuleContext } from "./context.js";

const RULE_FUNCTIONS: readonly Rule[] = [
  aliasSpellings,
  lowReplicates,
  budgetBand,
  acceptanceCriteria,
  deadlineVersusTurnaround,
  hazardDeclarations,
  agentIdentifier,
  micRules,
  zoneRules,
  cellViabilityRules,
  enzymeInhibitionRules,
  qpcrRules,
  sangerRules,
  growthRules,
  customProtocolRules,
];

export function runRules(ctx: RuleContext): RequestWarning[] {
  return RULE_FUNCTIONS.flatMap((rule) => rule(ctx));
}

export interface WarningRule {
  code: string;
  /** Where the rule and its thresholds come from. */
  source: string;
  summary: string;
}

const NOTES = "docs/assay-notes.md";

/** Every warning code the validator can emit (besides missing_required in draft mode). */
export const WARNING_RULES: readonly WarningRule[] = [
  {
    code: "request.alias_normalised",
    source: "clients of other marketplaces (statistical_requirements.test)",
    summary: "a field sent under another schema's name, stored under ours",
  },
  {
    code: "low_replicates",
    source: "docs/api.md replicate guidance",
    summary: "technical < 3 or biological < 1",
  },
  {
    code: "budget.below_typical_range",
    source: "docs/intake-model.md price bands",
    summary: "budget below the type's typical band",
  },
  {
    code: "budget.above_typical_range",
    source: "docs/intake-model.md price bands",
    summary: "budget above the type's typical band",
  },
  {
    code: "acceptance.no_success_conditions",
    source: "docs/api.md disputes",
    summary: "no success conditions to judge results by",
  },
  {
    code: "turnaround.deadline_before_turnaround",
    source: "request consistency",
    summary: "hard deadline before now + turnaround days",
  },
  {
    code: "turnaround.deadline_in_past",
    source: "request consistency",
    summary: "draft mode only: the hard deadline has passed",
  },
  {
    code: "compliance.hazardous_material_undeclared",
    source: "docs/intake-model.md compliance",
    summary: "a hazardous material without compliance.hazardous_chemicals",
  },
  {
    code: "compliance.sds_missing",
    source: "docs/intake-model.md compliance",
    summary: "hazardous chemicals without an SDS",
  },
  {
    code: "metadata.agent_identifier_missing",
    source: "docs/intake-model.md metadata",
    summary: "ai_agent submitter without agent_identifier",
  },
  {
    code: "mic.concentration_count",
    source: `${NOTES} §7.1 MIC-N (CLSI M07)`,
    summary: "fewer than 8 concentrations, or none stated",
  },
  { code: "mic.dilution_series", source: `${NOTES} §7.1 MIC-DIL`, summary: "series not two-fold" },
  {
    code: "mic.inoculum_density",
    source: `${NOTES} §7.1 MIC-INOC`,
    summary: "inoculum not stated or outside ~2-8 x 10^5 CFU/mL",
  },
  { code: "mic.incubation_temperature", source: `${NOTES} §7.1 MIC-TEMP`, summary: "outside 35 +/- 2 °C" },
  { code: "mic.incubation_time", source: `${NOTES} §7.1 MIC-TIME`, summary: "outside 16-24 h" },
  { code: "mic.medium", source: `${NOTES} §7.1 MIC-MED`, summary: "not Mueller-Hinton" },
  { code: "mic.controls", source: `${NOTES} §7.1 MIC-CTRL`, summary: "no QC strain / reference drug" },
  { code: "zone.medium", source: `${NOTES} §7.1 (CLSI M02)`, summary: "not Mueller-Hinton agar" },
  { code: "zone.incubation_temperature", source: `${NOTES} §7.1 (CLSI M02)`, summary: "outside 35 +/- 2 °C" },
  { code: "zone.incubation_time", source: `${NOTES} §7.1 (CLSI M02)`, summary: "outside 16-18 h" },
  {
    code: "zone.disk_loading",
    source: "docs/intake-model.md zone section",
    summary: "no disk loading stated",
  },
  {
    code: "zone.positive_control",
    source: "docs/intake-model.md zone section",
    summary: "no positive control disk",
  },
  {
    code: "ic50.dose_points",
    source: `${NOTES} §7.2 IC50-N`,
    summary: "fewer than 8 concentrations, or none stated",
  },
  { code: "ic50.dose_span", source: `${NOTES} §7.2 IC50-N`, summary: "range spans fewer than 3 log units" },
  {
    code: "ic50.dilution_spacing",
    source: `${NOTES} §7.2 IC50-N`,
    summary: "custom or wider than half-log spacing",
  },
  {
    code: "ic50.range_excludes_expected",
    source: `${NOTES} §7.2 IC50-FIT`,
    summary: "acceptance IC50 threshold outside the tested range",
  },
  { code: "ic50.positive_control", source: `${NOTES} §7.2 IC50-CTRL`, summary: "no positive (100%) control" },
  {
    code: "ic50.vehicle_control",
    source: `${NOTES} §7.2 IC50-CTRL`,
    summary: "no vehicle (0%) control mentioned",
  },
  {
    code: "ic50.solvent_concentration",
    source: `${NOTES} §7.2 IC50-CTRL`,
    summary: "DMSO above 0.5% at the top dose",
  },
  { code: "ic50.z_factor", source: `${NOTES} §7.2 IC50-FIT`, summary: "Z' not reported" },
  {
    code: "ic50.independent_runs",
    source: `${NOTES} §7.2 IC50-REP`,
    summary: "fewer than 2 independent runs",
  },
  {
    code: "enzyme.substrate_concentration",
    source: `${NOTES} §7.2 enzyme specifics`,
    summary: "[S] not stated",
  },
  {
    code: "enzyme.pre_incubation",
    source: `${NOTES} §7.2 enzyme specifics`,
    summary: "pre-incubation not stated",
  },
  {
    code: "enzyme.tight_binding",
    source: `${NOTES} §7.2 enzyme specifics`,
    summary: "enzyme concentration not below the expected IC50",
  },
  {
    code: "qpcr.reference_genes",
    source: `${NOTES} §7.3 QPCR-REF (MIQE)`,
    summary: "fewer than 2 reference genes",
  },
  { code: "qpcr.no_template_control", source: `${NOTES} §7.3 QPCR-CTRL`, summary: "no NTC mentioned" },
  {
    code: "qpcr.no_rt_control",
    source: `${NOTES} §7.3 QPCR-CTRL`,
    summary: "RNA/cells without a no-RT control",
  },
  {
    code: "qpcr.efficiency",
    source: `${NOTES} §7.3 QPCR-EFF`,
    summary: "efficiency/standard curve not mentioned",
  },
  { code: "qpcr.melt_curve", source: `${NOTES} §7.3 QPCR-CTRL`, summary: "SYBR Green without MELT_CURVES" },
  {
    code: "qpcr.biological_replicates",
    source: `${NOTES} §7.3 QPCR-REP`,
    summary: "fewer than 3 biological replicates",
  },
  {
    code: "qpcr.primer_sequences",
    source: `${NOTES} §7.3 QPCR-SAMPLE`,
    summary: "target without primers or assay id",
  },
  { code: "qpcr.rna_quality", source: `${NOTES} §7.3 QPCR-SAMPLE`, summary: "RIN / purity not mentioned" },
  { code: "sanger.primers", source: "docs/intake-model.md sanger section", summary: "no primers listed" },
  { code: "sanger.both_strands", source: `${NOTES} §7.4 SANGER`, summary: "a single primer" },
  {
    code: "sanger.insert_coverage",
    source: `${NOTES} §7.4 SANGER`,
    summary: "insert > ~800 bp without internal primers",
  },
  { code: "sanger.reference_sequence", source: `${NOTES} §7.4 SANGER`, summary: "no reference map attached" },
  { code: "sanger.quality_threshold", source: `${NOTES} §7.4 SANGER`, summary: "no QV criterion" },
  { code: "growth.read_schedule", source: `${NOTES} §7.4 GROWTH_MATRIX`, summary: "no read schedule" },
  {
    code: "growth.read_interval",
    source: `${NOTES} §7.4 GROWTH_MATRIX`,
    summary: "reads more than 30 min apart",
  },
  {
    code: "growth.endpoint_only_kinetics",
    source: `${NOTES} §7.4 GROWTH_MATRIX`,
    summary: "growth parameters from an endpoint read",
  },
  {
    code: "growth.incubation_temperature",
    source: `${NOTES} §7.4 GROWTH_MATRIX`,
    summary: "temperature not stated",
  },
  { code: "growth.aeration", source: `${NOTES} §7.4 GROWTH_MATRIX`, summary: "aeration not stated" },
  { code: "custom.step_duration", source: "docs/api.md custom step", summary: "steps without a duration" },
  {
    code: "custom.step_critical_parameters",
    source: "custom protocol completeness",
    summary: "a step without critical parameters (at least one step must have them)",
  },
  {
    code: "custom.safety_notes",
    source: "docs/api.md custom protocol",
    summary: "hazards without safety notes",
  },
  {
    code: "custom.description",
    source: "docs/intake-model.md custom section",
    summary: "no description and nothing attached",
  },
];
