// Written by proto/write-vocabulary.mjs from the enums of proto/ (`npm run generate`); do not edit.
// Each enum's REST spellings in declaration order, their type, spelling -> enum value and back.
import { ConcentrationUnit, DetectionMethod } from "./gen/petri/cloudlabs/v1/interpretation_pb.js";
import { ExperimentStatus } from "./gen/petri/experiments/v1/experiment_pb.js";
import {
  Aeration,
  DilutionSeriesKind,
  EnzymeAssayType,
  GrowthMeasurement,
  MicDilutionSeriesKind,
  MicMethod,
  OrganismSource,
  PlateFormat,
  PrimerProvider,
  QpcrChemistry,
  QpcrSampleType,
  SangerTemplateType,
  ViabilityAssayType,
} from "./gen/petri/experiments/v1/request_sections_pb.js";
import {
  ConditionOperator,
  DurationUnit,
  PackageLevel,
  PhotoDocumentation,
  PreferredContact,
  PriorWorkType,
  ProcessedOutput,
  ProtocolType,
  RawDataFormat,
  SubmitterType,
  TemperatureUnit,
} from "./gen/petri/experiments/v1/request_vocabulary_pb.js";
import {
  AcceptanceVerdict,
  ConditionOutcome,
  ConfidenceLevel,
  FailureConditionStatus,
  RecomputationStatus,
  SignificanceStatus,
  StatisticalTest,
  UnitCheck,
} from "./gen/petri/experiments/v1/results_pb.js";
import { TemplateCategory, TemplateParameterType } from "./gen/petri/experiments/v1/templates_pb.js";
import {
  BslLevel,
  BudgetFlexibility,
  DisputeOutcome,
  DisputeReason,
  DisputeStatus,
  ExperimentAction,
  ExperimentType,
  IssueSeverity,
  PrivacyLevel,
  TurnaroundPriority,
} from "./gen/petri/experiments/v1/vocabulary_pb.js";
import { Role, Tier } from "./gen/petri/identity/v1/account_pb.js";
import { QuotaPolicy, SigningKeyState } from "./gen/petri/identity/v1/credentials_pb.js";
import {
  CapacityLevel,
  InstitutionalApprovalType,
  OperatorStatus,
  OperatorType,
} from "./gen/petri/marketplace/v1/vocabulary_pb.js";
import { WebhookEvent } from "./gen/petri/notifications/v1/vocabulary_pb.js";

/** petri.cloudlabs.v1.ConcentrationUnit, as spelled in the REST API. */
export const CONCENTRATION_UNITS = ["µg/mL", "µM", "µg/disk"] as const;
export type ConcentrationUnitName = (typeof CONCENTRATION_UNITS)[number];
export const CONCENTRATION_UNIT_BY_NAME: Readonly<Record<ConcentrationUnitName, ConcentrationUnit>> = {
  "µg/mL": ConcentrationUnit.UG_PER_ML,
  µM: ConcentrationUnit.UM,
  "µg/disk": ConcentrationUnit.UG_PER_DISK,
};
export const CONCENTRATION_UNIT_NAME_BY_VALUE: ReadonlyMap<ConcentrationUnit, ConcentrationUnitName> =
  new Map([
    [ConcentrationUnit.UG_PER_ML, "µg/mL"],
    [ConcentrationUnit.UM, "µM"],
    [ConcentrationUnit.UG_PER_DISK, "µg/disk"],
  ]);

/** petri.cloudlabs.v1.DetectionMethod, as spelled in the REST API. */
export const DETECTION_METHODS = [
  "absorbance",
  "fluorescence",
  "luminescence",
  "qpcr_fluorescence",
  "sanger_sequencing",
  "imaging",
] as const;
export type DetectionMethodName = (typeof DETECTION_METHODS)[number];
export const DETECTION_METHOD_BY_NAME: Readonly<Record<DetectionMethodName, DetectionMethod>> = {
  absorbance: DetectionMethod.ABSORBANCE,
  fluorescence: DetectionMethod.FLUORESCENCE,
  luminescence: DetectionMethod.LUMINESCENCE,
  qpcr_fluorescence: DetectionMethod.QPCR_FLUORESCENCE,
  sanger_sequencing: DetectionMethod.SANGER_SEQUENCING,
  imaging: DetectionMethod.IMAGING,
};
export const DETECTION_METHOD_NAME_BY_VALUE: ReadonlyMap<DetectionMethod, DetectionMethodName> = new Map([
  [DetectionMethod.ABSORBANCE, "absorbance"],
  [DetectionMethod.FLUORESCENCE, "fluorescence"],
  [DetectionMethod.LUMINESCENCE, "luminescence"],
  [DetectionMethod.QPCR_FLUORESCENCE, "qpcr_fluorescence"],
  [DetectionMethod.SANGER_SEQUENCING, "sanger_sequencing"],
  [DetectionMethod.IMAGING, "imaging"],
]);

/** petri.experiments.v1.AcceptanceVerdict, as spelled in the REST API. */
export const ACCEPTANCE_VERDICTS = ["criteria_met", "criteria_not_met", "indeterminate"] as const;
export type AcceptanceVerdictName = (typeof ACCEPTANCE_VERDICTS)[number];
export const ACCEPTANCE_VERDICT_BY_NAME: Readonly<Record<AcceptanceVerdictName, AcceptanceVerdict>> = {
  criteria_met: AcceptanceVerdict.CRITERIA_MET,
  criteria_not_met: AcceptanceVerdict.CRITERIA_NOT_MET,
  indeterminate: AcceptanceVerdict.INDETERMINATE,
};
export const ACCEPTANCE_VERDICT_NAME_BY_VALUE: ReadonlyMap<AcceptanceVerdict, AcceptanceVerdictName> =
  new Map([
    [AcceptanceVerdict.CRITERIA_MET, "criteria_met"],
    [AcceptanceVerdict.CRITERIA_NOT_MET, "criteria_not_met"],
    [AcceptanceVerdict.INDETERMINATE, "indeterminate"],
  ]);

/** petri.experiments.v1.Aeration, as spelled in the REST API. */
export const AERATIONS = ["static", "shaking", "anaerobic"] as const;
export type AerationName = (typeof AERATIONS)[number];
export const AERATION_BY_NAME: Readonly<Record<AerationName, Aeration>> = {
  static: Aeration.STATIC,
  shaking: Aeration.SHAKING,
  anaerobic: Aeration.ANAEROBIC,
};
export const AERATION_NAME_BY_VALUE: ReadonlyMap<Aeration, AerationName> = new Map([
  [Aeration.STATIC, "static"],
  [Aeration.SHAKING, "shaking"],
  [Aeration.ANAEROBIC, "anaerobic"],
]);

/** petri.experiments.v1.BslLevel, as spelled in the REST API. */
export const BSL_LEVELS = ["BSL-1", "BSL-2", "BSL-3", "BSL-4"] as const;
export type BslLevelName = (typeof BSL_LEVELS)[number];
export const BSL_LEVEL_BY_NAME: Readonly<Record<BslLevelName, BslLevel>> = {
  "BSL-1": BslLevel.BSL_1,
  "BSL-2": BslLevel.BSL_2,
  "BSL-3": BslLevel.BSL_3,
  "BSL-4": BslLevel.BSL_4,
};
export const BSL_LEVEL_NAME_BY_VALUE: ReadonlyMap<BslLevel, BslLevelName> = new Map([
  [BslLevel.BSL_1, "BSL-1"],
  [BslLevel.BSL_2, "BSL-2"],
  [BslLevel.BSL_3, "BSL-3"],
  [BslLevel.BSL_4, "BSL-4"],
]);

/** petri.experiments.v1.BudgetFlexibility, as spelled in the REST API. */
export const BUDGET_FLEXIBILITIES = ["strict", "flexible_10", "flexible_25", "flexible_50"] as const;
export type BudgetFlexibilityName = (typeof BUDGET_FLEXIBILITIES)[number];
export const BUDGET_FLEXIBILITY_BY_NAME: Readonly<Record<BudgetFlexibilityName, BudgetFlexibility>> = {
  strict: BudgetFlexibility.STRICT,
  flexible_10: BudgetFlexibility.FLEXIBLE_10,
  flexible_25: BudgetFlexibility.FLEXIBLE_25,
  flexible_50: BudgetFlexibility.FLEXIBLE_50,
};
export const BUDGET_FLEXIBILITY_NAME_BY_VALUE: ReadonlyMap<BudgetFlexibility, BudgetFlexibilityName> =
  new Map([
    [BudgetFlexibility.STRICT, "strict"],
    [BudgetFlexibility.FLEXIBLE_10, "flexible_10"],
    [BudgetFlexibility.FLEXIBLE_25, "flexible_25"],
    [BudgetFlexibility.FLEXIBLE_50, "flexible_50"],
  ]);

/** petri.experiments.v1.ConditionOperator, as spelled in the REST API. */
export const CONDITION_OPERATORS = ["gt", "gte", "lt", "lte", "eq", "neq", "between", "not_between"] as const;
export type ConditionOperatorName = (typeof CONDITION_OPERATORS)[number];
export const CONDITION_OPERATOR_BY_NAME: Readonly<Record<ConditionOperatorName, ConditionOperator>> = {
  gt: ConditionOperator.GT,
  gte: ConditionOperator.GTE,
  lt: ConditionOperator.LT,
  lte: ConditionOperator.LTE,
  eq: ConditionOperator.EQ,
  neq: ConditionOperator.NEQ,
  between: ConditionOperator.BETWEEN,
  not_between: ConditionOperator.NOT_BETWEEN,
};
export const CONDITION_OPERATOR_NAME_BY_VALUE: ReadonlyMap<ConditionOperator, ConditionOperatorName> =
  new Map([
    [ConditionOperator.GT, "gt"],
    [ConditionOperator.GTE, "gte"],
    [ConditionOperator.LT, "lt"],
    [ConditionOperator.LTE, "lte"],
    [ConditionOperator.EQ, "eq"],
    [ConditionOperator.NEQ, "neq"],
    [ConditionOperator.BETWEEN, "between"],
    [ConditionOperator.NOT_BETWEEN, "not_between"],
  ]);

/** petri.experiments.v1.ConditionOutcome, as spelled in the REST API. */
export const CONDITION_OUTCOMES = ["met", "not_met", "indeterminate"] as const;
export type ConditionOutcomeName = (typeof CONDITION_OUTCOMES)[number];
export const CONDITION_OUTCOME_BY_NAME: Readonly<Record<ConditionOutcomeName, ConditionOutcome>> = {
  met: ConditionOutcome.MET,
  not_met: ConditionOutcome.NOT_MET,
  indeterminate: ConditionOutcome.INDETERMINATE,
};
export const CONDITION_OUTCOME_NAME_BY_VALUE: ReadonlyMap<ConditionOutcome, ConditionOutcomeName> = new Map([
  [ConditionOutcome.MET, "met"],
  [ConditionOutcome.NOT_MET, "not_met"],
  [ConditionOutcome.INDETERMINATE, "indeterminate"],
]);

/** petri.experiments.v1.ConfidenceLevel, as spelled in the REST API. */
export const CONFIDENCE_LEVELS = ["high", "medium", "low", "inconclusive"] as const;
export type ConfidenceLevelName = (typeof CONFIDENCE_LEVELS)[number];
export const CONFIDENCE_LEVEL_BY_NAME: Readonly<Record<ConfidenceLevelName, ConfidenceLevel>> = {
  high: ConfidenceLevel.HIGH,
  medium: ConfidenceLevel.MEDIUM,
  low: ConfidenceLevel.LOW,
  inconclusive: ConfidenceLevel.INCONCLUSIVE,
};
export const CONFIDENCE_LEVEL_NAME_BY_VALUE: ReadonlyMap<ConfidenceLevel, ConfidenceLevelName> = new Map([
  [ConfidenceLevel.HIGH, "high"],
  [ConfidenceLevel.MEDIUM, "medium"],
  [ConfidenceLevel.LOW, "low"],
  [ConfidenceLevel.INCONCLUSIVE, "inconclusive"],
]);

/** petri.experiments.v1.DilutionSeriesKind, as spelled in the REST API. */
export const DILUTION_SERIES_KINDS = ["2-fold", "3-fold", "half-log", "custom"] as const;
export type DilutionSeriesKindName = (typeof DILUTION_SERIES_KINDS)[number];
export const DILUTION_SERIES_KIND_BY_NAME: Readonly<Record<DilutionSeriesKindName, DilutionSeriesKind>> = {
  "2-fold": DilutionSeriesKind.TWO_FOLD,
  "3-fold": DilutionSeriesKind.THREE_FOLD,
  "half-log": DilutionSeriesKind.HALF_LOG,
  custom: DilutionSeriesKind.CUSTOM,
};
export const DILUTION_SERIES_KIND_NAME_BY_VALUE: ReadonlyMap<DilutionSeriesKind, DilutionSeriesKindName> =
  new Map([
    [DilutionSeriesKind.TWO_FOLD, "2-fold"],
    [DilutionSeriesKind.THREE_FOLD, "3-fold"],
    [DilutionSeriesKind.HALF_LOG, "half-log"],
    [DilutionSeriesKind.CUSTOM, "custom"],
  ]);

/** petri.experiments.v1.DisputeOutcome, as spelled in the REST API. */
export const DISPUTE_OUTCOMES = ["requester", "operator", "split"] as const;
export type DisputeOutcomeName = (typeof DISPUTE_OUTCOMES)[number];
export const DISPUTE_OUTCOME_BY_NAME: Readonly<Record<DisputeOutcomeName, DisputeOutcome>> = {
  requester: DisputeOutcome.REQUESTER,
  operator: DisputeOutcome.OPERATOR,
  split: DisputeOutcome.SPLIT,
};
export const DISPUTE_OUTCOME_NAME_BY_VALUE: ReadonlyMap<DisputeOutcome, DisputeOutcomeName> = new Map([
  [DisputeOutcome.REQUESTER, "requester"],
  [DisputeOutcome.OPERATOR, "operator"],
  [DisputeOutcome.SPLIT, "split"],
]);

/** petri.experiments.v1.DisputeReason, as spelled in the REST API. */
export const DISPUTE_REASONS = [
  "results_incomplete",
  "results_incorrect",
  "protocol_not_followed",
  "documentation_insufficient",
  "other",
] as const;
export type DisputeReasonName = (typeof DISPUTE_REASONS)[number];
export const DISPUTE_REASON_BY_NAME: Readonly<Record<DisputeReasonName, DisputeReason>> = {
  results_incomplete: DisputeReason.RESULTS_INCOMPLETE,
  results_incorrect: DisputeReason.RESULTS_INCORRECT,
  protocol_not_followed: DisputeReason.PROTOCOL_NOT_FOLLOWED,
  documentation_insufficient: DisputeReason.DOCUMENTATION_INSUFFICIENT,
  other: DisputeReason.OTHER,
};
export const DISPUTE_REASON_NAME_BY_VALUE: ReadonlyMap<DisputeReason, DisputeReasonName> = new Map([
  [DisputeReason.RESULTS_INCOMPLETE, "results_incomplete"],
  [DisputeReason.RESULTS_INCORRECT, "results_incorrect"],
  [DisputeReason.PROTOCOL_NOT_FOLLOWED, "protocol_not_followed"],
  [DisputeReason.DOCUMENTATION_INSUFFICIENT, "documentation_insufficient"],
  [DisputeReason.OTHER, "other"],
]);

/** petri.experiments.v1.DisputeStatus, as spelled in the REST API. */
export const DISPUTE_STATUSES = ["open", "resolved"] as const;
export type DisputeStatusName = (typeof DISPUTE_STATUSES)[number];
export const DISPUTE_STATUS_BY_NAME: Readonly<Record<DisputeStatusName, DisputeStatus>> = {
  open: DisputeStatus.OPEN,
  resolved: DisputeStatus.RESOLVED,
};
export const DISPUTE_STATUS_NAME_BY_VALUE: ReadonlyMap<DisputeStatus, DisputeStatusName> = new Map([
  [DisputeStatus.OPEN, "open"],
  [DisputeStatus.RESOLVED, "resolved"],
]);

/** petri.experiments.v1.DurationUnit, as spelled in the REST API. */
export const DURATION_UNITS = ["seconds", "minutes", "hours", "days"] as const;
export type DurationUnitName = (typeof DURATION_UNITS)[number];
export const DURATION_UNIT_BY_NAME: Readonly<Record<DurationUnitName, DurationUnit>> = {
  seconds: DurationUnit.SECONDS,
  minutes: DurationUnit.MINUTES,
  hours: DurationUnit.HOURS,
  days: DurationUnit.DAYS,
};
export const DURATION_UNIT_NAME_BY_VALUE: ReadonlyMap<DurationUnit, DurationUnitName> = new Map([
  [DurationUnit.SECONDS, "seconds"],
  [DurationUnit.MINUTES, "minutes"],
  [DurationUnit.HOURS, "hours"],
  [DurationUnit.DAYS, "days"],
]);

/** petri.experiments.v1.EnzymeAssayType, as spelled in the REST API. */
export const ENZYME_ASSAY_TYPES = [
  "COLORIMETRIC",
  "FLUOROMETRIC",
  "LUMINESCENT",
  "RADIOMETRIC",
  "COUPLED",
  "OTHER",
] as const;
export type EnzymeAssayTypeName = (typeof ENZYME_ASSAY_TYPES)[number];
export const ENZYME_ASSAY_TYPE_BY_NAME: Readonly<Record<EnzymeAssayTypeName, EnzymeAssayType>> = {
  COLORIMETRIC: EnzymeAssayType.COLORIMETRIC,
  FLUOROMETRIC: EnzymeAssayType.FLUOROMETRIC,
  LUMINESCENT: EnzymeAssayType.LUMINESCENT,
  RADIOMETRIC: EnzymeAssayType.RADIOMETRIC,
  COUPLED: EnzymeAssayType.COUPLED,
  OTHER: EnzymeAssayType.OTHER,
};
export const ENZYME_ASSAY_TYPE_NAME_BY_VALUE: ReadonlyMap<EnzymeAssayType, EnzymeAssayTypeName> = new Map([
  [EnzymeAssayType.COLORIMETRIC, "COLORIMETRIC"],
  [EnzymeAssayType.FLUOROMETRIC, "FLUOROMETRIC"],
  [EnzymeAssayType.LUMINESCENT, "LUMINESCENT"],
  [EnzymeAssayType.RADIOMETRIC, "RADIOMETRIC"],
  [EnzymeAssayType.COUPLED, "COUPLED"],
  [EnzymeAssayType.OTHER, "OTHER"],
]);

/** petri.experiments.v1.ExperimentAction, as spelled in the REST API. */
export const EXPERIMENT_ACTIONS = [
  "submit",
  "approve_review",
  "reject_review",
  "propose_protocol",
  "accept_protocol",
  "request_protocol_changes",
  "update",
  "cancel",
  "claim",
  "start",
  "submit_results",
  "approve_results",
  "dispute",
  "resolve_dispute",
] as const;
export type ExperimentActionName = (typeof EXPERIMENT_ACTIONS)[number];
export const EXPERIMENT_ACTION_BY_NAME: Readonly<Record<ExperimentActionName, ExperimentAction>> = {
  submit: ExperimentAction.SUBMIT,
  approve_review: ExperimentAction.APPROVE_REVIEW,
  reject_review: ExperimentAction.REJECT_REVIEW,
  propose_protocol: ExperimentAction.PROPOSE_PROTOCOL,
  accept_protocol: ExperimentAction.ACCEPT_PROTOCOL,
  request_protocol_changes: ExperimentAction.REQUEST_PROTOCOL_CHANGES,
  update: ExperimentAction.UPDATE,
  cancel: ExperimentAction.CANCEL,
  claim: ExperimentAction.CLAIM,
  start: ExperimentAction.START,
  submit_results: ExperimentAction.SUBMIT_RESULTS,
  approve_results: ExperimentAction.APPROVE_RESULTS,
  dispute: ExperimentAction.DISPUTE,
  resolve_dispute: ExperimentAction.RESOLVE_DISPUTE,
};
export const EXPERIMENT_ACTION_NAME_BY_VALUE: ReadonlyMap<ExperimentAction, ExperimentActionName> = new Map([
  [ExperimentAction.SUBMIT, "submit"],
  [ExperimentAction.APPROVE_REVIEW, "approve_review"],
  [ExperimentAction.REJECT_REVIEW, "reject_review"],
  [ExperimentAction.PROPOSE_PROTOCOL, "propose_protocol"],
  [ExperimentAction.ACCEPT_PROTOCOL, "accept_protocol"],
  [ExperimentAction.REQUEST_PROTOCOL_CHANGES, "request_protocol_changes"],
  [ExperimentAction.UPDATE, "update"],
  [ExperimentAction.CANCEL, "cancel"],
  [ExperimentAction.CLAIM, "claim"],
  [ExperimentAction.START, "start"],
  [ExperimentAction.SUBMIT_RESULTS, "submit_results"],
  [ExperimentAction.APPROVE_RESULTS, "approve_results"],
  [ExperimentAction.DISPUTE, "dispute"],
  [ExperimentAction.RESOLVE_DISPUTE, "resolve_dispute"],
]);

/** petri.experiments.v1.ExperimentStatus, as spelled in the REST API. */
export const EXPERIMENT_STATUSES = [
  "draft",
  "pending_review",
  "open",
  "claimed",
  "in_progress",
  "pending_approval",
  "completed",
  "disputed",
  "resolved",
  "cancelled",
] as const;
export type ExperimentStatusName = (typeof EXPERIMENT_STATUSES)[number];
export const EXPERIMENT_STATUS_BY_NAME: Readonly<Record<ExperimentStatusName, ExperimentStatus>> = {
  draft: ExperimentStatus.DRAFT,
  pending_review: ExperimentStatus.PENDING_REVIEW,
  open: ExperimentStatus.OPEN,
  claimed: ExperimentStatus.CLAIMED,
  in_progress: ExperimentStatus.IN_PROGRESS,
  pending_approval: ExperimentStatus.PENDING_APPROVAL,
  completed: ExperimentStatus.COMPLETED,
  disputed: ExperimentStatus.DISPUTED,
  resolved: ExperimentStatus.RESOLVED,
  cancelled: ExperimentStatus.CANCELLED,
};
export const EXPERIMENT_STATUS_NAME_BY_VALUE: ReadonlyMap<ExperimentStatus, ExperimentStatusName> = new Map([
  [ExperimentStatus.DRAFT, "draft"],
  [ExperimentStatus.PENDING_REVIEW, "pending_review"],
  [ExperimentStatus.OPEN, "open"],
  [ExperimentStatus.CLAIMED, "claimed"],
  [ExperimentStatus.IN_PROGRESS, "in_progress"],
  [ExperimentStatus.PENDING_APPROVAL, "pending_approval"],
  [ExperimentStatus.COMPLETED, "completed"],
  [ExperimentStatus.DISPUTED, "disputed"],
  [ExperimentStatus.RESOLVED, "resolved"],
  [ExperimentStatus.CANCELLED, "cancelled"],
]);

/** petri.experiments.v1.ExperimentType, as spelled in the REST API. */
export const EXPERIMENT_TYPES = [
  "SANGER_PLASMID_VERIFICATION",
  "QPCR_EXPRESSION",
  "CELL_VIABILITY_IC50",
  "ENZYME_INHIBITION_IC50",
  "MICROBIAL_GROWTH_MATRIX",
  "MIC_MBC_ASSAY",
  "ZONE_OF_INHIBITION",
  "CUSTOM",
] as const;
export type ExperimentTypeName = (typeof EXPERIMENT_TYPES)[number];
export const EXPERIMENT_TYPE_BY_NAME: Readonly<Record<ExperimentTypeName, ExperimentType>> = {
  SANGER_PLASMID_VERIFICATION: ExperimentType.SANGER_PLASMID_VERIFICATION,
  QPCR_EXPRESSION: ExperimentType.QPCR_EXPRESSION,
  CELL_VIABILITY_IC50: ExperimentType.CELL_VIABILITY_IC50,
  ENZYME_INHIBITION_IC50: ExperimentType.ENZYME_INHIBITION_IC50,
  MICROBIAL_GROWTH_MATRIX: ExperimentType.MICROBIAL_GROWTH_MATRIX,
  MIC_MBC_ASSAY: ExperimentType.MIC_MBC_ASSAY,
  ZONE_OF_INHIBITION: ExperimentType.ZONE_OF_INHIBITION,
  CUSTOM: ExperimentType.CUSTOM,
};
export const EXPERIMENT_TYPE_NAME_BY_VALUE: ReadonlyMap<ExperimentType, ExperimentTypeName> = new Map([
  [ExperimentType.SANGER_PLASMID_VERIFICATION, "SANGER_PLASMID_VERIFICATION"],
  [ExperimentType.QPCR_EXPRESSION, "QPCR_EXPRESSION"],
  [ExperimentType.CELL_VIABILITY_IC50, "CELL_VIABILITY_IC50"],
  [ExperimentType.ENZYME_INHIBITION_IC50, "ENZYME_INHIBITION_IC50"],
  [ExperimentType.MICROBIAL_GROWTH_MATRIX, "MICROBIAL_GROWTH_MATRIX"],
  [ExperimentType.MIC_MBC_ASSAY, "MIC_MBC_ASSAY"],
  [ExperimentType.ZONE_OF_INHIBITION, "ZONE_OF_INHIBITION"],
  [ExperimentType.CUSTOM, "CUSTOM"],
]);

/** petri.experiments.v1.FailureConditionStatus, as spelled in the REST API. */
export const FAILURE_CONDITION_STATUSES = ["possibly_triggered", "not_detected"] as const;
export type FailureConditionStatusName = (typeof FAILURE_CONDITION_STATUSES)[number];
export const FAILURE_CONDITION_STATUS_BY_NAME: Readonly<
  Record<FailureConditionStatusName, FailureConditionStatus>
> = {
  possibly_triggered: FailureConditionStatus.POSSIBLY_TRIGGERED,
  not_detected: FailureConditionStatus.NOT_DETECTED,
};
export const FAILURE_CONDITION_STATUS_NAME_BY_VALUE: ReadonlyMap<
  FailureConditionStatus,
  FailureConditionStatusName
> = new Map([
  [FailureConditionStatus.POSSIBLY_TRIGGERED, "possibly_triggered"],
  [FailureConditionStatus.NOT_DETECTED, "not_detected"],
]);

/** petri.experiments.v1.GrowthMeasurement, as spelled in the REST API. */
export const GROWTH_MEASUREMENTS = ["OD600", "CFU", "both"] as const;
export type GrowthMeasurementName = (typeof GROWTH_MEASUREMENTS)[number];
export const GROWTH_MEASUREMENT_BY_NAME: Readonly<Record<GrowthMeasurementName, GrowthMeasurement>> = {
  OD600: GrowthMeasurement.OD600,
  CFU: GrowthMeasurement.CFU,
  both: GrowthMeasurement.BOTH,
};
export const GROWTH_MEASUREMENT_NAME_BY_VALUE: ReadonlyMap<GrowthMeasurement, GrowthMeasurementName> =
  new Map([
    [GrowthMeasurement.OD600, "OD600"],
    [GrowthMeasurement.CFU, "CFU"],
    [GrowthMeasurement.BOTH, "both"],
  ]);

/** petri.experiments.v1.IssueSeverity, as spelled in the REST API. */
export const ISSUE_SEVERITIES = ["low", "medium", "high", "critical"] as const;
export type IssueSeverityName = (typeof ISSUE_SEVERITIES)[number];
export const ISSUE_SEVERITY_BY_NAME: Readonly<Record<IssueSeverityName, IssueSeverity>> = {
  low: IssueSeverity.LOW,
  medium: IssueSeverity.MEDIUM,
  high: IssueSeverity.HIGH,
  critical: IssueSeverity.CRITICAL,
};
export const ISSUE_SEVERITY_NAME_BY_VALUE: ReadonlyMap<IssueSeverity, IssueSeverityName> = new Map([
  [IssueSeverity.LOW, "low"],
  [IssueSeverity.MEDIUM, "medium"],
  [IssueSeverity.HIGH, "high"],
  [IssueSeverity.CRITICAL, "critical"],
]);

/** petri.experiments.v1.MicDilutionSeriesKind, as spelled in the REST API. */
export const MIC_DILUTION_SERIES_KINDS = ["2-fold", "custom"] as const;
export type MicDilutionSeriesKindName = (typeof MIC_DILUTION_SERIES_KINDS)[number];
export const MIC_DILUTION_SERIES_KIND_BY_NAME: Readonly<
  Record<MicDilutionSeriesKindName, MicDilutionSeriesKind>
> = {
  "2-fold": MicDilutionSeriesKind.TWO_FOLD,
  custom: MicDilutionSeriesKind.CUSTOM,
};
export const MIC_DILUTION_SERIES_KIND_NAME_BY_VALUE: ReadonlyMap<
  MicDilutionSeriesKind,
  MicDilutionSeriesKindName
> = new Map([
  [MicDilutionSeriesKind.TWO_FOLD, "2-fold"],
  [MicDilutionSeriesKind.CUSTOM, "custom"],
]);

/** petri.experiments.v1.MicMethod, as spelled in the REST API. */
export const MIC_METHODS = ["broth_microdilution", "broth_macrodilution", "agar_dilution"] as const;
export type MicMethodName = (typeof MIC_METHODS)[number];
export const MIC_METHOD_BY_NAME: Readonly<Record<MicMethodName, MicMethod>> = {
  broth_microdilution: MicMethod.BROTH_MICRODILUTION,
  broth_macrodilution: MicMethod.BROTH_MACRODILUTION,
  agar_dilution: MicMethod.AGAR_DILUTION,
};
export const MIC_METHOD_NAME_BY_VALUE: ReadonlyMap<MicMethod, MicMethodName> = new Map([
  [MicMethod.BROTH_MICRODILUTION, "broth_microdilution"],
  [MicMethod.BROTH_MACRODILUTION, "broth_macrodilution"],
  [MicMethod.AGAR_DILUTION, "agar_dilution"],
]);

/** petri.experiments.v1.OrganismSource, as spelled in the REST API. */
export const ORGANISM_SOURCES = ["ATCC", "DSMZ", "in_house", "other"] as const;
export type OrganismSourceName = (typeof ORGANISM_SOURCES)[number];
export const ORGANISM_SOURCE_BY_NAME: Readonly<Record<OrganismSourceName, OrganismSource>> = {
  ATCC: OrganismSource.ATCC,
  DSMZ: OrganismSource.DSMZ,
  in_house: OrganismSource.IN_HOUSE,
  other: OrganismSource.OTHER,
};
export const ORGANISM_SOURCE_NAME_BY_VALUE: ReadonlyMap<OrganismSource, OrganismSourceName> = new Map([
  [OrganismSource.ATCC, "ATCC"],
  [OrganismSource.DSMZ, "DSMZ"],
  [OrganismSource.IN_HOUSE, "in_house"],
  [OrganismSource.OTHER, "other"],
]);

/** petri.experiments.v1.PackageLevel, as spelled in the REST API. */
export const PACKAGE_LEVELS = ["L0_RAW_ONLY", "L1_BASIC_QC", "L2_INTERPRETATION"] as const;
export type PackageLevelName = (typeof PACKAGE_LEVELS)[number];
export const PACKAGE_LEVEL_BY_NAME: Readonly<Record<PackageLevelName, PackageLevel>> = {
  L0_RAW_ONLY: PackageLevel.L0_RAW_ONLY,
  L1_BASIC_QC: PackageLevel.L1_BASIC_QC,
  L2_INTERPRETATION: PackageLevel.L2_INTERPRETATION,
};
export const PACKAGE_LEVEL_NAME_BY_VALUE: ReadonlyMap<PackageLevel, PackageLevelName> = new Map([
  [PackageLevel.L0_RAW_ONLY, "L0_RAW_ONLY"],
  [PackageLevel.L1_BASIC_QC, "L1_BASIC_QC"],
  [PackageLevel.L2_INTERPRETATION, "L2_INTERPRETATION"],
]);

/** petri.experiments.v1.PhotoDocumentation, as spelled in the REST API. */
export const PHOTO_DOCUMENTATIONS = ["none", "key_steps", "all_steps"] as const;
export type PhotoDocumentationName = (typeof PHOTO_DOCUMENTATIONS)[number];
export const PHOTO_DOCUMENTATION_BY_NAME: Readonly<Record<PhotoDocumentationName, PhotoDocumentation>> = {
  none: PhotoDocumentation.NONE,
  key_steps: PhotoDocumentation.KEY_STEPS,
  all_steps: PhotoDocumentation.ALL_STEPS,
};
export const PHOTO_DOCUMENTATION_NAME_BY_VALUE: ReadonlyMap<PhotoDocumentation, PhotoDocumentationName> =
  new Map([
    [PhotoDocumentation.NONE, "none"],
    [PhotoDocumentation.KEY_STEPS, "key_steps"],
    [PhotoDocumentation.ALL_STEPS, "all_steps"],
  ]);

/** petri.experiments.v1.PlateFormat, as spelled in the REST API. */
export const PLATE_FORMATS = ["96-well", "384-well"] as const;
export type PlateFormatName = (typeof PLATE_FORMATS)[number];
export const PLATE_FORMAT_BY_NAME: Readonly<Record<PlateFormatName, PlateFormat>> = {
  "96-well": PlateFormat.WELLS_96,
  "384-well": PlateFormat.WELLS_384,
};
export const PLATE_FORMAT_NAME_BY_VALUE: ReadonlyMap<PlateFormat, PlateFormatName> = new Map([
  [PlateFormat.WELLS_96, "96-well"],
  [PlateFormat.WELLS_384, "384-well"],
]);

/** petri.experiments.v1.PreferredContact, as spelled in the REST API. */
export const PREFERRED_CONTACTS = ["email", "webhook", "platform_only"] as const;
export type PreferredContactName = (typeof PREFERRED_CONTACTS)[number];
export const PREFERRED_CONTACT_BY_NAME: Readonly<Record<PreferredContactName, PreferredContact>> = {
  email: PreferredContact.EMAIL,
  webhook: PreferredContact.WEBHOOK,
  platform_only: PreferredContact.PLATFORM_ONLY,
};
export const PREFERRED_CONTACT_NAME_BY_VALUE: ReadonlyMap<PreferredContact, PreferredContactName> = new Map([
  [PreferredContact.EMAIL, "email"],
  [PreferredContact.WEBHOOK, "webhook"],
  [PreferredContact.PLATFORM_ONLY, "platform_only"],
]);

/** petri.experiments.v1.PrimerProvider, as spelled in the REST API. */
export const PRIMER_PROVIDERS = ["requester", "operator"] as const;
export type PrimerProviderName = (typeof PRIMER_PROVIDERS)[number];
export const PRIMER_PROVIDER_BY_NAME: Readonly<Record<PrimerProviderName, PrimerProvider>> = {
  requester: PrimerProvider.REQUESTER,
  operator: PrimerProvider.OPERATOR,
};
export const PRIMER_PROVIDER_NAME_BY_VALUE: ReadonlyMap<PrimerProvider, PrimerProviderName> = new Map([
  [PrimerProvider.REQUESTER, "requester"],
  [PrimerProvider.OPERATOR, "operator"],
]);

/** petri.experiments.v1.PriorWorkType, as spelled in the REST API. */
export const PRIOR_WORK_TYPES = ["doi", "pmid", "url", "experiment"] as const;
export type PriorWorkTypeName = (typeof PRIOR_WORK_TYPES)[number];
export const PRIOR_WORK_TYPE_BY_NAME: Readonly<Record<PriorWorkTypeName, PriorWorkType>> = {
  doi: PriorWorkType.DOI,
  pmid: PriorWorkType.PMID,
  url: PriorWorkType.URL,
  experiment: PriorWorkType.EXPERIMENT,
};
export const PRIOR_WORK_TYPE_NAME_BY_VALUE: ReadonlyMap<PriorWorkType, PriorWorkTypeName> = new Map([
  [PriorWorkType.DOI, "doi"],
  [PriorWorkType.PMID, "pmid"],
  [PriorWorkType.URL, "url"],
  [PriorWorkType.EXPERIMENT, "experiment"],
]);

/** petri.experiments.v1.PrivacyLevel, as spelled in the REST API. */
export const PRIVACY_LEVELS = ["open", "delayed_6mo", "delayed_12mo", "private"] as const;
export type PrivacyLevelName = (typeof PRIVACY_LEVELS)[number];
export const PRIVACY_LEVEL_BY_NAME: Readonly<Record<PrivacyLevelName, PrivacyLevel>> = {
  open: PrivacyLevel.OPEN,
  delayed_6mo: PrivacyLevel.DELAYED_6MO,
  delayed_12mo: PrivacyLevel.DELAYED_12MO,
  private: PrivacyLevel.PRIVATE,
};
export const PRIVACY_LEVEL_NAME_BY_VALUE: ReadonlyMap<PrivacyLevel, PrivacyLevelName> = new Map([
  [PrivacyLevel.OPEN, "open"],
  [PrivacyLevel.DELAYED_6MO, "delayed_6mo"],
  [PrivacyLevel.DELAYED_12MO, "delayed_12mo"],
  [PrivacyLevel.PRIVATE, "private"],
]);

/** petri.experiments.v1.ProcessedOutput, as spelled in the REST API. */
export const PROCESSED_OUTPUTS = [
  "ALIGNMENT_VS_REFERENCE",
  "VARIANT_CALLS",
  "CT_TABLE",
  "DDCT_FOLD_CHANGE",
  "AMPLIFICATION_PLOTS",
  "MELT_CURVES",
  "NORMALIZED_VIABILITY_PERCENT",
  "IC50_CURVE_FIT",
  "KINETIC_PARAMETERS",
  "GROWTH_RATE_LAG_MAXOD",
  "MIC_VALUE",
  "MBC_VALUE",
  "ZONE_DIAMETER_MM",
  "QC_SUMMARY",
  "ANALYSIS_NOTEBOOK",
] as const;
export type ProcessedOutputName = (typeof PROCESSED_OUTPUTS)[number];
export const PROCESSED_OUTPUT_BY_NAME: Readonly<Record<ProcessedOutputName, ProcessedOutput>> = {
  ALIGNMENT_VS_REFERENCE: ProcessedOutput.ALIGNMENT_VS_REFERENCE,
  VARIANT_CALLS: ProcessedOutput.VARIANT_CALLS,
  CT_TABLE: ProcessedOutput.CT_TABLE,
  DDCT_FOLD_CHANGE: ProcessedOutput.DDCT_FOLD_CHANGE,
  AMPLIFICATION_PLOTS: ProcessedOutput.AMPLIFICATION_PLOTS,
  MELT_CURVES: ProcessedOutput.MELT_CURVES,
  NORMALIZED_VIABILITY_PERCENT: ProcessedOutput.NORMALIZED_VIABILITY_PERCENT,
  IC50_CURVE_FIT: ProcessedOutput.IC50_CURVE_FIT,
  KINETIC_PARAMETERS: ProcessedOutput.KINETIC_PARAMETERS,
  GROWTH_RATE_LAG_MAXOD: ProcessedOutput.GROWTH_RATE_LAG_MAXOD,
  MIC_VALUE: ProcessedOutput.MIC_VALUE,
  MBC_VALUE: ProcessedOutput.MBC_VALUE,
  ZONE_DIAMETER_MM: ProcessedOutput.ZONE_DIAMETER_MM,
  QC_SUMMARY: ProcessedOutput.QC_SUMMARY,
  ANALYSIS_NOTEBOOK: ProcessedOutput.ANALYSIS_NOTEBOOK,
};
export const PROCESSED_OUTPUT_NAME_BY_VALUE: ReadonlyMap<ProcessedOutput, ProcessedOutputName> = new Map([
  [ProcessedOutput.ALIGNMENT_VS_REFERENCE, "ALIGNMENT_VS_REFERENCE"],
  [ProcessedOutput.VARIANT_CALLS, "VARIANT_CALLS"],
  [ProcessedOutput.CT_TABLE, "CT_TABLE"],
  [ProcessedOutput.DDCT_FOLD_CHANGE, "DDCT_FOLD_CHANGE"],
  [ProcessedOutput.AMPLIFICATION_PLOTS, "AMPLIFICATION_PLOTS"],
  [ProcessedOutput.MELT_CURVES, "MELT_CURVES"],
  [ProcessedOutput.NORMALIZED_VIABILITY_PERCENT, "NORMALIZED_VIABILITY_PERCENT"],
  [ProcessedOutput.IC50_CURVE_FIT, "IC50_CURVE_FIT"],
  [ProcessedOutput.KINETIC_PARAMETERS, "KINETIC_PARAMETERS"],
  [ProcessedOutput.GROWTH_RATE_LAG_MAXOD, "GROWTH_RATE_LAG_MAXOD"],
  [ProcessedOutput.MIC_VALUE, "MIC_VALUE"],
  [ProcessedOutput.MBC_VALUE, "MBC_VALUE"],
  [ProcessedOutput.ZONE_DIAMETER_MM, "ZONE_DIAMETER_MM"],
  [ProcessedOutput.QC_SUMMARY, "QC_SUMMARY"],
  [ProcessedOutput.ANALYSIS_NOTEBOOK, "ANALYSIS_NOTEBOOK"],
]);

/** petri.experiments.v1.ProtocolType, as spelled in the REST API. */
export const PROTOCOL_TYPES = ["standard_template", "custom", "protocol_design_requested"] as const;
export type ProtocolTypeName = (typeof PROTOCOL_TYPES)[number];
export const PROTOCOL_TYPE_BY_NAME: Readonly<Record<ProtocolTypeName, ProtocolType>> = {
  standard_template: ProtocolType.STANDARD_TEMPLATE,
  custom: ProtocolType.CUSTOM,
  protocol_design_requested: ProtocolType.PROTOCOL_DESIGN_REQUESTED,
};
export const PROTOCOL_TYPE_NAME_BY_VALUE: ReadonlyMap<ProtocolType, ProtocolTypeName> = new Map([
  [ProtocolType.STANDARD_TEMPLATE, "standard_template"],
  [ProtocolType.CUSTOM, "custom"],
  [ProtocolType.PROTOCOL_DESIGN_REQUESTED, "protocol_design_requested"],
]);

/** petri.experiments.v1.QpcrChemistry, as spelled in the REST API. */
export const QPCR_CHEMISTRIES = ["SYBR_GREEN", "TAQMAN", "OTHER"] as const;
export type QpcrChemistryName = (typeof QPCR_CHEMISTRIES)[number];
export const QPCR_CHEMISTRY_BY_NAME: Readonly<Record<QpcrChemistryName, QpcrChemistry>> = {
  SYBR_GREEN: QpcrChemistry.SYBR_GREEN,
  TAQMAN: QpcrChemistry.TAQMAN,
  OTHER: QpcrChemistry.OTHER,
};
export const QPCR_CHEMISTRY_NAME_BY_VALUE: ReadonlyMap<QpcrChemistry, QpcrChemistryName> = new Map([
  [QpcrChemistry.SYBR_GREEN, "SYBR_GREEN"],
  [QpcrChemistry.TAQMAN, "TAQMAN"],
  [QpcrChemistry.OTHER, "OTHER"],
]);

/** petri.experiments.v1.QpcrSampleType, as spelled in the REST API. */
export const QPCR_SAMPLE_TYPES = ["cDNA", "RNA", "gDNA", "cells"] as const;
export type QpcrSampleTypeName = (typeof QPCR_SAMPLE_TYPES)[number];
export const QPCR_SAMPLE_TYPE_BY_NAME: Readonly<Record<QpcrSampleTypeName, QpcrSampleType>> = {
  cDNA: QpcrSampleType.CDNA,
  RNA: QpcrSampleType.RNA,
  gDNA: QpcrSampleType.GDNA,
  cells: QpcrSampleType.CELLS,
};
export const QPCR_SAMPLE_TYPE_NAME_BY_VALUE: ReadonlyMap<QpcrSampleType, QpcrSampleTypeName> = new Map([
  [QpcrSampleType.CDNA, "cDNA"],
  [QpcrSampleType.RNA, "RNA"],
  [QpcrSampleType.GDNA, "gDNA"],
  [QpcrSampleType.CELLS, "cells"],
]);

/** petri.experiments.v1.RawDataFormat, as spelled in the REST API. */
export const RAW_DATA_FORMATS = [
  "CSV",
  "XLSX",
  "AB1",
  "SEQ",
  "FASTQ",
  "INSTRUMENT_EXPORT",
  "IMAGE_FILES",
  "PDF_REPORT",
  "JSON",
] as const;
export type RawDataFormatName = (typeof RAW_DATA_FORMATS)[number];
export const RAW_DATA_FORMAT_BY_NAME: Readonly<Record<RawDataFormatName, RawDataFormat>> = {
  CSV: RawDataFormat.CSV,
  XLSX: RawDataFormat.XLSX,
  AB1: RawDataFormat.AB1,
  SEQ: RawDataFormat.SEQ,
  FASTQ: RawDataFormat.FASTQ,
  INSTRUMENT_EXPORT: RawDataFormat.INSTRUMENT_EXPORT,
  IMAGE_FILES: RawDataFormat.IMAGE_FILES,
  PDF_REPORT: RawDataFormat.PDF_REPORT,
  JSON: RawDataFormat.JSON,
};
export const RAW_DATA_FORMAT_NAME_BY_VALUE: ReadonlyMap<RawDataFormat, RawDataFormatName> = new Map([
  [RawDataFormat.CSV, "CSV"],
  [RawDataFormat.XLSX, "XLSX"],
  [RawDataFormat.AB1, "AB1"],
  [RawDataFormat.SEQ, "SEQ"],
  [RawDataFormat.FASTQ, "FASTQ"],
  [RawDataFormat.INSTRUMENT_EXPORT, "INSTRUMENT_EXPORT"],
  [RawDataFormat.IMAGE_FILES, "IMAGE_FILES"],
  [RawDataFormat.PDF_REPORT, "PDF_REPORT"],
  [RawDataFormat.JSON, "JSON"],
]);

/** petri.experiments.v1.RecomputationStatus, as spelled in the REST API. */
export const RECOMPUTATION_STATUSES = ["computed", "not_applicable", "unsupported_test"] as const;
export type RecomputationStatusName = (typeof RECOMPUTATION_STATUSES)[number];
export const RECOMPUTATION_STATUS_BY_NAME: Readonly<Record<RecomputationStatusName, RecomputationStatus>> = {
  computed: RecomputationStatus.COMPUTED,
  not_applicable: RecomputationStatus.NOT_APPLICABLE,
  unsupported_test: RecomputationStatus.UNSUPPORTED_TEST,
};
export const RECOMPUTATION_STATUS_NAME_BY_VALUE: ReadonlyMap<RecomputationStatus, RecomputationStatusName> =
  new Map([
    [RecomputationStatus.COMPUTED, "computed"],
    [RecomputationStatus.NOT_APPLICABLE, "not_applicable"],
    [RecomputationStatus.UNSUPPORTED_TEST, "unsupported_test"],
  ]);

/** petri.experiments.v1.SangerTemplateType, as spelled in the REST API. */
export const SANGER_TEMPLATE_TYPES = ["plasmid", "pcr_product", "genomic"] as const;
export type SangerTemplateTypeName = (typeof SANGER_TEMPLATE_TYPES)[number];
export const SANGER_TEMPLATE_TYPE_BY_NAME: Readonly<Record<SangerTemplateTypeName, SangerTemplateType>> = {
  plasmid: SangerTemplateType.PLASMID,
  pcr_product: SangerTemplateType.PCR_PRODUCT,
  genomic: SangerTemplateType.GENOMIC,
};
export const SANGER_TEMPLATE_TYPE_NAME_BY_VALUE: ReadonlyMap<SangerTemplateType, SangerTemplateTypeName> =
  new Map([
    [SangerTemplateType.PLASMID, "plasmid"],
    [SangerTemplateType.PCR_PRODUCT, "pcr_product"],
    [SangerTemplateType.GENOMIC, "genomic"],
  ]);

/** petri.experiments.v1.SignificanceStatus, as spelled in the REST API. */
export const SIGNIFICANCE_STATUSES = ["significant", "not_significant", "missing"] as const;
export type SignificanceStatusName = (typeof SIGNIFICANCE_STATUSES)[number];
export const SIGNIFICANCE_STATUS_BY_NAME: Readonly<Record<SignificanceStatusName, SignificanceStatus>> = {
  significant: SignificanceStatus.SIGNIFICANT,
  not_significant: SignificanceStatus.NOT_SIGNIFICANT,
  missing: SignificanceStatus.MISSING,
};
export const SIGNIFICANCE_STATUS_NAME_BY_VALUE: ReadonlyMap<SignificanceStatus, SignificanceStatusName> =
  new Map([
    [SignificanceStatus.SIGNIFICANT, "significant"],
    [SignificanceStatus.NOT_SIGNIFICANT, "not_significant"],
    [SignificanceStatus.MISSING, "missing"],
  ]);

/** petri.experiments.v1.StatisticalTest, as spelled in the REST API. */
export const STATISTICAL_TESTS = ["t_test", "anova", "mann_whitney", "chi_square", "fisher_exact"] as const;
export type StatisticalTestName = (typeof STATISTICAL_TESTS)[number];
export const STATISTICAL_TEST_BY_NAME: Readonly<Record<StatisticalTestName, StatisticalTest>> = {
  t_test: StatisticalTest.T_TEST,
  anova: StatisticalTest.ANOVA,
  mann_whitney: StatisticalTest.MANN_WHITNEY,
  chi_square: StatisticalTest.CHI_SQUARE,
  fisher_exact: StatisticalTest.FISHER_EXACT,
};
export const STATISTICAL_TEST_NAME_BY_VALUE: ReadonlyMap<StatisticalTest, StatisticalTestName> = new Map([
  [StatisticalTest.T_TEST, "t_test"],
  [StatisticalTest.ANOVA, "anova"],
  [StatisticalTest.MANN_WHITNEY, "mann_whitney"],
  [StatisticalTest.CHI_SQUARE, "chi_square"],
  [StatisticalTest.FISHER_EXACT, "fisher_exact"],
]);

/** petri.experiments.v1.SubmitterType, as spelled in the REST API. */
export const SUBMITTER_TYPES = ["human", "ai_agent", "automated_pipeline"] as const;
export type SubmitterTypeName = (typeof SUBMITTER_TYPES)[number];
export const SUBMITTER_TYPE_BY_NAME: Readonly<Record<SubmitterTypeName, SubmitterType>> = {
  human: SubmitterType.HUMAN,
  ai_agent: SubmitterType.AI_AGENT,
  automated_pipeline: SubmitterType.AUTOMATED_PIPELINE,
};
export const SUBMITTER_TYPE_NAME_BY_VALUE: ReadonlyMap<SubmitterType, SubmitterTypeName> = new Map([
  [SubmitterType.HUMAN, "human"],
  [SubmitterType.AI_AGENT, "ai_agent"],
  [SubmitterType.AUTOMATED_PIPELINE, "automated_pipeline"],
]);

/** petri.experiments.v1.TemperatureUnit, as spelled in the REST API. */
export const TEMPERATURE_UNITS = ["C", "F", "K"] as const;
export type TemperatureUnitName = (typeof TEMPERATURE_UNITS)[number];
export const TEMPERATURE_UNIT_BY_NAME: Readonly<Record<TemperatureUnitName, TemperatureUnit>> = {
  C: TemperatureUnit.CELSIUS,
  F: TemperatureUnit.FAHRENHEIT,
  K: TemperatureUnit.KELVIN,
};
export const TEMPERATURE_UNIT_NAME_BY_VALUE: ReadonlyMap<TemperatureUnit, TemperatureUnitName> = new Map([
  [TemperatureUnit.CELSIUS, "C"],
  [TemperatureUnit.FAHRENHEIT, "F"],
  [TemperatureUnit.KELVIN, "K"],
]);

/** petri.experiments.v1.TemplateCategory, as spelled in the REST API. */
export const TEMPLATE_CATEGORIES = [
  "biochemistry",
  "microbiology",
  "cell_biology",
  "molecular_biology",
  "analytical",
] as const;
export type TemplateCategoryName = (typeof TEMPLATE_CATEGORIES)[number];
export const TEMPLATE_CATEGORY_BY_NAME: Readonly<Record<TemplateCategoryName, TemplateCategory>> = {
  biochemistry: TemplateCategory.BIOCHEMISTRY,
  microbiology: TemplateCategory.MICROBIOLOGY,
  cell_biology: TemplateCategory.CELL_BIOLOGY,
  molecular_biology: TemplateCategory.MOLECULAR_BIOLOGY,
  analytical: TemplateCategory.ANALYTICAL,
};
export const TEMPLATE_CATEGORY_NAME_BY_VALUE: ReadonlyMap<TemplateCategory, TemplateCategoryName> = new Map([
  [TemplateCategory.BIOCHEMISTRY, "biochemistry"],
  [TemplateCategory.MICROBIOLOGY, "microbiology"],
  [TemplateCategory.CELL_BIOLOGY, "cell_biology"],
  [TemplateCategory.MOLECULAR_BIOLOGY, "molecular_biology"],
  [TemplateCategory.ANALYTICAL, "analytical"],
]);

/** petri.experiments.v1.TemplateParameterType, as spelled in the REST API. */
export const TEMPLATE_PARAMETER_TYPES = ["string", "number", "integer", "boolean", "enum"] as const;
export type TemplateParameterTypeName = (typeof TEMPLATE_PARAMETER_TYPES)[number];
export const TEMPLATE_PARAMETER_TYPE_BY_NAME: Readonly<
  Record<TemplateParameterTypeName, TemplateParameterType>
> = {
  string: TemplateParameterType.STRING,
  number: TemplateParameterType.NUMBER,
  integer: TemplateParameterType.INTEGER,
  boolean: TemplateParameterType.BOOLEAN,
  enum: TemplateParameterType.ENUM,
};
export const TEMPLATE_PARAMETER_TYPE_NAME_BY_VALUE: ReadonlyMap<
  TemplateParameterType,
  TemplateParameterTypeName
> = new Map([
  [TemplateParameterType.STRING, "string"],
  [TemplateParameterType.NUMBER, "number"],
  [TemplateParameterType.INTEGER, "integer"],
  [TemplateParameterType.BOOLEAN, "boolean"],
  [TemplateParameterType.ENUM, "enum"],
]);

/** petri.experiments.v1.TurnaroundPriority, as spelled in the REST API. */
export const TURNAROUND_PRIORITIES = ["standard", "expedited", "urgent"] as const;
export type TurnaroundPriorityName = (typeof TURNAROUND_PRIORITIES)[number];
export const TURNAROUND_PRIORITY_BY_NAME: Readonly<Record<TurnaroundPriorityName, TurnaroundPriority>> = {
  standard: TurnaroundPriority.STANDARD,
  expedited: TurnaroundPriority.EXPEDITED,
  urgent: TurnaroundPriority.URGENT,
};
export const TURNAROUND_PRIORITY_NAME_BY_VALUE: ReadonlyMap<TurnaroundPriority, TurnaroundPriorityName> =
  new Map([
    [TurnaroundPriority.STANDARD, "standard"],
    [TurnaroundPriority.EXPEDITED, "expedited"],
    [TurnaroundPriority.URGENT, "urgent"],
  ]);

/** petri.experiments.v1.UnitCheck, as spelled in the REST API. */
export const UNIT_CHECKS = ["match", "mismatch", "not_checked"] as const;
export type UnitCheckName = (typeof UNIT_CHECKS)[number];
export const UNIT_CHECK_BY_NAME: Readonly<Record<UnitCheckName, UnitCheck>> = {
  match: UnitCheck.MATCH,
  mismatch: UnitCheck.MISMATCH,
  not_checked: UnitCheck.NOT_CHECKED,
};
export const UNIT_CHECK_NAME_BY_VALUE: ReadonlyMap<UnitCheck, UnitCheckName> = new Map([
  [UnitCheck.MATCH, "match"],
  [UnitCheck.MISMATCH, "mismatch"],
  [UnitCheck.NOT_CHECKED, "not_checked"],
]);

/** petri.experiments.v1.ViabilityAssayType, as spelled in the REST API. */
export const VIABILITY_ASSAY_TYPES = [
  "CELLTITER_GLO",
  "MTT",
  "MTS",
  "RESAZURIN",
  "LIVE_DEAD",
  "OTHER",
] as const;
export type ViabilityAssayTypeName = (typeof VIABILITY_ASSAY_TYPES)[number];
export const VIABILITY_ASSAY_TYPE_BY_NAME: Readonly<Record<ViabilityAssayTypeName, ViabilityAssayType>> = {
  CELLTITER_GLO: ViabilityAssayType.CELLTITER_GLO,
  MTT: ViabilityAssayType.MTT,
  MTS: ViabilityAssayType.MTS,
  RESAZURIN: ViabilityAssayType.RESAZURIN,
  LIVE_DEAD: ViabilityAssayType.LIVE_DEAD,
  OTHER: ViabilityAssayType.OTHER,
};
export const VIABILITY_ASSAY_TYPE_NAME_BY_VALUE: ReadonlyMap<ViabilityAssayType, ViabilityAssayTypeName> =
  new Map([
    [ViabilityAssayType.CELLTITER_GLO, "CELLTITER_GLO"],
    [ViabilityAssayType.MTT, "MTT"],
    [ViabilityAssayType.MTS, "MTS"],
    [ViabilityAssayType.RESAZURIN, "RESAZURIN"],
    [ViabilityAssayType.LIVE_DEAD, "LIVE_DEAD"],
    [ViabilityAssayType.OTHER, "OTHER"],
  ]);

/** petri.identity.v1.QuotaPolicy, as spelled in the REST API. */
export const QUOTA_POLICIES = ["account", "anonymous", "auth_failures", "credential_failures"] as const;
export type QuotaPolicyName = (typeof QUOTA_POLICIES)[number];
export const QUOTA_POLICY_BY_NAME: Readonly<Record<QuotaPolicyName, QuotaPolicy>> = {
  account: QuotaPolicy.ACCOUNT,
  anonymous: QuotaPolicy.ANONYMOUS,
  auth_failures: QuotaPolicy.AUTH_FAILURES,
  credential_failures: QuotaPolicy.CREDENTIAL_FAILURES,
};
export const QUOTA_POLICY_NAME_BY_VALUE: ReadonlyMap<QuotaPolicy, QuotaPolicyName> = new Map([
  [QuotaPolicy.ACCOUNT, "account"],
  [QuotaPolicy.ANONYMOUS, "anonymous"],
  [QuotaPolicy.AUTH_FAILURES, "auth_failures"],
  [QuotaPolicy.CREDENTIAL_FAILURES, "credential_failures"],
]);

/** petri.identity.v1.Role, as spelled in the REST API. */
export const ROLES = ["requester", "operator", "staff"] as const;
export type RoleName = (typeof ROLES)[number];
export const ROLE_BY_NAME: Readonly<Record<RoleName, Role>> = {
  requester: Role.REQUESTER,
  operator: Role.OPERATOR,
  staff: Role.STAFF,
};
export const ROLE_NAME_BY_VALUE: ReadonlyMap<Role, RoleName> = new Map([
  [Role.REQUESTER, "requester"],
  [Role.OPERATOR, "operator"],
  [Role.STAFF, "staff"],
]);

/** petri.identity.v1.SigningKeyState, as spelled in the REST API. */
export const SIGNING_KEY_STATES = ["active", "retiring"] as const;
export type SigningKeyStateName = (typeof SIGNING_KEY_STATES)[number];
export const SIGNING_KEY_STATE_BY_NAME: Readonly<Record<SigningKeyStateName, SigningKeyState>> = {
  active: SigningKeyState.ACTIVE,
  retiring: SigningKeyState.RETIRING,
};
export const SIGNING_KEY_STATE_NAME_BY_VALUE: ReadonlyMap<SigningKeyState, SigningKeyStateName> = new Map([
  [SigningKeyState.ACTIVE, "active"],
  [SigningKeyState.RETIRING, "retiring"],
]);

/** petri.identity.v1.Tier, as spelled in the REST API. */
export const TIERS = ["standard", "pro", "ai_agent", "custom"] as const;
export type TierName = (typeof TIERS)[number];
export const TIER_BY_NAME: Readonly<Record<TierName, Tier>> = {
  standard: Tier.STANDARD,
  pro: Tier.PRO,
  ai_agent: Tier.AI_AGENT,
  custom: Tier.CUSTOM,
};
export const TIER_NAME_BY_VALUE: ReadonlyMap<Tier, TierName> = new Map([
  [Tier.STANDARD, "standard"],
  [Tier.PRO, "pro"],
  [Tier.AI_AGENT, "ai_agent"],
  [Tier.CUSTOM, "custom"],
]);

/** petri.marketplace.v1.CapacityLevel, as spelled in the REST API. */
export const CAPACITY_LEVELS = ["high", "medium", "low", "none"] as const;
export type CapacityLevelName = (typeof CAPACITY_LEVELS)[number];
export const CAPACITY_LEVEL_BY_NAME: Readonly<Record<CapacityLevelName, CapacityLevel>> = {
  high: CapacityLevel.HIGH,
  medium: CapacityLevel.MEDIUM,
  low: CapacityLevel.LOW,
  none: CapacityLevel.NONE,
};
export const CAPACITY_LEVEL_NAME_BY_VALUE: ReadonlyMap<CapacityLevel, CapacityLevelName> = new Map([
  [CapacityLevel.HIGH, "high"],
  [CapacityLevel.MEDIUM, "medium"],
  [CapacityLevel.LOW, "low"],
  [CapacityLevel.NONE, "none"],
]);

/** petri.marketplace.v1.InstitutionalApprovalType, as spelled in the REST API. */
export const INSTITUTIONAL_APPROVAL_TYPES = [
  "pi_letter",
  "core_facility_agreement",
  "commercial_contract",
  "other",
] as const;
export type InstitutionalApprovalTypeName = (typeof INSTITUTIONAL_APPROVAL_TYPES)[number];
export const INSTITUTIONAL_APPROVAL_TYPE_BY_NAME: Readonly<
  Record<InstitutionalApprovalTypeName, InstitutionalApprovalType>
> = {
  pi_letter: InstitutionalApprovalType.PI_LETTER,
  core_facility_agreement: InstitutionalApprovalType.CORE_FACILITY_AGREEMENT,
  commercial_contract: InstitutionalApprovalType.COMMERCIAL_CONTRACT,
  other: InstitutionalApprovalType.OTHER,
};
export const INSTITUTIONAL_APPROVAL_TYPE_NAME_BY_VALUE: ReadonlyMap<
  InstitutionalApprovalType,
  InstitutionalApprovalTypeName
> = new Map([
  [InstitutionalApprovalType.PI_LETTER, "pi_letter"],
  [InstitutionalApprovalType.CORE_FACILITY_AGREEMENT, "core_facility_agreement"],
  [InstitutionalApprovalType.COMMERCIAL_CONTRACT, "commercial_contract"],
  [InstitutionalApprovalType.OTHER, "other"],
]);

/** petri.marketplace.v1.OperatorStatus, as spelled in the REST API. */
export const OPERATOR_STATUSES = [
  "onboarding",
  "pending_verification",
  "active",
  "rejected",
  "paused",
  "suspended",
] as const;
export type OperatorStatusName = (typeof OPERATOR_STATUSES)[number];
export const OPERATOR_STATUS_BY_NAME: Readonly<Record<OperatorStatusName, OperatorStatus>> = {
  onboarding: OperatorStatus.ONBOARDING,
  pending_verification: OperatorStatus.PENDING_VERIFICATION,
  active: OperatorStatus.ACTIVE,
  rejected: OperatorStatus.REJECTED,
  paused: OperatorStatus.PAUSED,
  suspended: OperatorStatus.SUSPENDED,
};
export const OPERATOR_STATUS_NAME_BY_VALUE: ReadonlyMap<OperatorStatus, OperatorStatusName> = new Map([
  [OperatorStatus.ONBOARDING, "onboarding"],
  [OperatorStatus.PENDING_VERIFICATION, "pending_verification"],
  [OperatorStatus.ACTIVE, "active"],
  [OperatorStatus.REJECTED, "rejected"],
  [OperatorStatus.PAUSED, "paused"],
  [OperatorStatus.SUSPENDED, "suspended"],
]);

/** petri.marketplace.v1.OperatorType, as spelled in the REST API. */
export const OPERATOR_TYPES = [
  "individual_operator",
  "academic_core",
  "commercial_cro",
  "startup_lab",
] as const;
export type OperatorTypeName = (typeof OPERATOR_TYPES)[number];
export const OPERATOR_TYPE_BY_NAME: Readonly<Record<OperatorTypeName, OperatorType>> = {
  individual_operator: OperatorType.INDIVIDUAL_OPERATOR,
  academic_core: OperatorType.ACADEMIC_CORE,
  commercial_cro: OperatorType.COMMERCIAL_CRO,
  startup_lab: OperatorType.STARTUP_LAB,
};
export const OPERATOR_TYPE_NAME_BY_VALUE: ReadonlyMap<OperatorType, OperatorTypeName> = new Map([
  [OperatorType.INDIVIDUAL_OPERATOR, "individual_operator"],
  [OperatorType.ACADEMIC_CORE, "academic_core"],
  [OperatorType.COMMERCIAL_CRO, "commercial_cro"],
  [OperatorType.STARTUP_LAB, "startup_lab"],
]);

/** petri.notifications.v1.WebhookEvent, as spelled in the REST API. */
export const WEBHOOK_EVENTS = ["claimed", "started", "completed", "issue", "approved", "disputed"] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];
export const WEBHOOK_EVENT_BY_NAME: Readonly<Record<WebhookEventName, WebhookEvent>> = {
  claimed: WebhookEvent.CLAIMED,
  started: WebhookEvent.STARTED,
  completed: WebhookEvent.COMPLETED,
  issue: WebhookEvent.ISSUE,
  approved: WebhookEvent.APPROVED,
  disputed: WebhookEvent.DISPUTED,
};
export const WEBHOOK_EVENT_NAME_BY_VALUE: ReadonlyMap<WebhookEvent, WebhookEventName> = new Map([
  [WebhookEvent.CLAIMED, "claimed"],
  [WebhookEvent.STARTED, "started"],
  [WebhookEvent.COMPLETED, "completed"],
  [WebhookEvent.ISSUE, "issue"],
  [WebhookEvent.APPROVED, "approved"],
  [WebhookEvent.DISPUTED, "disputed"],
]);
