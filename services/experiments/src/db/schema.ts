import type { JsonValue, JsonbColumn, MessagingTables } from "@petri/db";
import type { ColumnType, Generated, Selectable } from "kysely";
import type { RefundStatus } from "../domain/lifecycle/cancellation.js";
import type { ProposalComment, ProtocolProposal } from "../domain/lifecycle/protocol-design.js";
import type { ExperimentStatus } from "../domain/lifecycle/transitions.js";

/** A nullable jsonb column: reads give the parsed value or null; writes take JSON text or null. */
type NullableJsonb<T extends JsonValue> = ColumnType<T | null, string | null, string | null>;

export type OperatorAvailability = "high" | "medium" | "low" | "none";

export interface ExperimentsTable {
  id: string;
  requester_account_id: string;
  status: ExperimentStatus;
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
  operator_availability: OperatorAvailability | null;
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
  claimed_at: Date | null;
  deadline: Date | null;
  cancel_reason: string | null;
  refund_cents: number | null;
  operator_compensation_cents: number | null;
  refund_status: RefundStatus | null;
  cancelled_by: string | null;
  cancelled_at: Date | null;
  version: Generated<number>;
  created_at: Date;
  updated_at: Date;
  submitted_at: Date | null;
}

export type ExperimentRow = Selectable<ExperimentsTable>;

/** One verified operator's capacity for one experiment type (a projection of the marketplace's). */
export interface OperatorCapacityTable {
  operator_id: string;
  experiment_type: string;
  max_bsl: number;
  human_samples_approved: Generated<boolean>;
  current_capacity: OperatorAvailability;
  source_version: Generated<number>;
  updated_at: Date;
}

export interface ExperimentsDb extends MessagingTables {
  experiments: ExperimentsTable;
  operator_capacity: OperatorCapacityTable;
}
