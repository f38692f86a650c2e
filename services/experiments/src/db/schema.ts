import type { JsonValue, JsonbColumn, MessagingTables } from "@petri/db";
import type { ColumnType, Generated, Selectable } from "kysely";
import type {
  CapacityLevelName,
  DisputeOutcomeName,
  DisputeReasonName,
  DisputeStatusName,
  ExperimentStatusName,
  IssueSeverityName,
} from "@petri/contracts/vocabulary";
import type { JobRequirements } from "../domain/jobs/index.js";
import type { RefundStatus } from "../domain/lifecycle/cancellation.js";
import type { ProposalComment, ProtocolProposal } from "../domain/lifecycle/protocol-design.js";

/** A nullable jsonb column: reads give the parsed value or null; writes take JSON text or null. */
type NullableJsonb<T extends JsonValue> = ColumnType<T | null, string | null, string | null>;

export interface ExperimentsTable {
  id: string;
  requester_account_id: string;
  status: ExperimentStatusName;
  experiment_type: string | null;
  title: string | null;
  /** The normalised request (every default applied). */
  request: JsonbColumn<{ [key: string]: JsonValue }>;
  /** The request as sent, with PATCHes merged in (what a re-validation starts from). */
  raw_request: JsonbColumn<{ [key: string]: JsonValue }>;
  cost_low_cents: number | null;
  cost_typical_cents: number | null;
  cost_high_cents: number | null;
  turnaround_standard_days: number | null;
  turnaround_expedited_days: number | null;
  turnaround_days: number | null;
  /** {materials_cents, labor_cents, equipment_cents, platform_fee_cents, privacy_premium_cents}. */
  cost_breakdown: NullableJsonb<{ [key: string]: number }>;
  operator_availability: CapacityLevelName | null;
  hold_cents: Generated<number>;
  review_reasons: JsonbColumn<string[]>;
  safety_flags: JsonbColumn<string[]>;
  review_note: string | null;
  reviewed_by: string | null;
  reviewed_at: Date | null;
  protocol_proposal: NullableJsonb<ProtocolProposal>;
  proposal_comments: JsonbColumn<ProposalComment[]>;
  operator_id: string | null;
  operator_lab_name: string | null;
  /** The operator's account ("usr_..."): who may act as the assigned operator. */
  operator_account_id: string | null;
  claimed_at: Date | null;
  deadline: Date | null;
  /** YYYY-MM-DD, as the operator estimated when claiming. */
  estimated_start_date: string | null;
  claim_notes: string | null;
  started_at: Date | null;
  results_submitted_at: Date | null;
  completed_at: Date | null;
  approval_rating: number | null;
  approval_feedback: string | null;
  approved_at: Date | null;
  cancel_reason: string | null;
  refund_cents: number | null;
  operator_compensation_cents: number | null;
  refund_status: RefundStatus | null;
  cancelled_by: string | null;
  cancelled_at: Date | null;
  /** The payment projection (the marketplace ledger's PaymentUpdated events), in cents. */
  payment_status: Generated<PaymentStatus>;
  payment_held_cents: Generated<number>;
  payment_released_cents: Generated<number>;
  payment_refunded_cents: Generated<number>;
  payment_still_held_cents: Generated<number>;
  /** The ledger's version of the last applied PaymentUpdated (0: none yet). */
  payment_version: Generated<number>;
  payment_updated_at: Date | null;
  /** JobRequirements derived from `request` when it was stored; null for rows stored before. */
  job: NullableJsonb<JobRequirementsJson>;
  /** The library hypothesis it was created from (to-experiment); null otherwise. */
  source_hypothesis_id: string | null;
  version: Generated<number>;
  created_at: Date;
  updated_at: Date;
  submitted_at: Date | null;
}

/**
 * A row as read: every column, and the request also as the text PostgreSQL writes for the
 * jsonb (`request_json`), which messages carry as it is (D321): every read and write of an
 * experiment returns the same text for the same request, and none parses and re-serialises it.
 */
export type ExperimentRow = Selectable<ExperimentsTable> & { request_json: string };

export const PAYMENT_STATUSES = [
  "not_held",
  "held",
  "released",
  "refunded",
  "partially_refunded",
  "disputed",
  "resolved",
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** domain/jobs JobRequirements as stored (JSON). */
export type JobRequirementsJson = JobRequirements & { [key: string]: JsonValue };

/** Projection of the marketplace's OperatorEligibilityChanged events (newest version per operator). */
export interface OperatorEligibilityTable {
  operator_id: string;
  account_id: string;
  lab_name: string;
  status: string;
  experiment_types: JsonbColumn<string[]>;
  max_bsl: string;
  human_samples_approved: boolean;
  animal_samples_approved: boolean;
  hazardous_chemicals_approved: boolean;
  equipment: JsonbColumn<string[]>;
  equipment_verified: boolean;
  max_concurrent_jobs: number;
  current_capacity: string;
  timezone: string;
  vacations: JsonbColumn<Array<{ start: string; end: string }>>;
  version: number;
  updated_at: Date;
}

export type OperatorEligibilityRow = Selectable<OperatorEligibilityTable>;

export interface ExperimentIssuesTable {
  id: string;
  experiment_id: string;
  description: string;
  severity: IssueSeverityName;
  reported_by: string;
  reported_at: Date;
}

export type IssueRow = Selectable<ExperimentIssuesTable>;

/** One per experiment: the stored results JSON (domain/results toStoredResults, no file bytes). */
export interface ExperimentResultsTable {
  experiment_id: string;
  results: JsonbColumn<{ [key: string]: JsonValue }>;
  submitted_by: string;
  submitted_at: Date;
}

export type ResultsRow = Selectable<ExperimentResultsTable>;

export interface ResultFilesTable {
  file_id: string;
  experiment_id: string;
  kind: "raw_data" | "photo" | "lab_notebook";
  name: string;
  format: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  blob_key: string;
  /** A photo's step as sent (number or label). */
  step: NullableJsonb<number | string>;
  caption: string | null;
  /** Order within the submission. */
  position: number;
  created_at: Date;
}

export type ResultFileRow = Selectable<ResultFilesTable>;

export interface DisputesTable {
  id: string;
  experiment_id: string;
  requester_account_id: string;
  operator_id: string;
  reason: DisputeReasonName;
  description: string;
  evidence_urls: JsonbColumn<string[]>;
  status: DisputeStatusName;
  raised_from: "pending_approval" | "completed";
  outcome: DisputeOutcomeName | null;
  requester_amount_cents: number | null;
  operator_amount_cents: number | null;
  resolution_note: string | null;
  resolved_by: string | null;
  created_at: Date;
  resolved_at: Date | null;
}

export type DisputeRow = Selectable<DisputesTable>;

export interface FileUrlKeysTable {
  name: string;
  /** base64 of the random HMAC key. */
  key: string;
  created_at: Date;
}

/** The hypotheses service's HypothesisSaved events, newest version per hypothesis (D349). */
export interface HypothesisViewsTable {
  id: string;
  owner_account_id: string;
  status: string;
  title: string;
  statement: string;
  /** "" for none, as the event carries it. */
  null_hypothesis: string;
  experiment_type: string;
  intake_draft_json: string;
  version: ColumnType<string, bigint | number | string, bigint | number | string>;
}

export interface ExperimentsDb extends MessagingTables {
  experiments: ExperimentsTable;
  operator_eligibility: OperatorEligibilityTable;
  experiment_issues: ExperimentIssuesTable;
  experiment_results: ExperimentResultsTable;
  result_files: ResultFilesTable;
  disputes: DisputesTable;
  file_url_keys: FileUrlKeysTable;
  hypothesis_views: HypothesisViewsTable;
}
