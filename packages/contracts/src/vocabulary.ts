// Written by proto/write-vocabulary.mjs from the enums of proto/ (`npm run generate`); do not edit.
// Each enum's REST spellings in declaration order, their type, spelling -> enum value and back.
import { ExperimentStatus } from "./gen/petri/experiments/v1/experiment_pb.js";
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
