/**
 * An experiment with what belongs to it in other tables (its issues and its dispute): what
 * every response and every event carries as the Experiment message.
 *
 * The belongings are read in the same statement as the experiment (correlated subqueries
 * aggregated to JSON), so a read is one round trip to the database whatever the number of
 * experiments.
 */
import { FixedQuery } from "@petri/db";
import { isId } from "@petri/service-kit";
import { type ExpressionBuilder, type Kysely, type SelectQueryBuilder, sql } from "kysely";
import { jsonArrayFrom, jsonObjectFrom } from "kysely/helpers/postgres";
import type { DisputeRow, ExperimentRow, ExperimentsDb, IssueRow } from "./schema.js";

export type ExperimentRecord = ExperimentRow & {
  /** Oldest first. */
  issues: IssueRow[];
  /** The latest dispute, or null. */
  dispute: DisputeRow | null;
};

/** The request's jsonb as PostgreSQL writes it: ExperimentRow.request_json (D321). */
export const requestText = sql<string>`experiments.request::text`.as("request_json");

/** Timestamps arrive as ISO 8601 text inside JSON; numbers and nested JSON arrive as such. */
type AsJson<Row> = {
  [K in keyof Row]: Row[K] extends Date ? string : Row[K] extends Date | null ? string | null : Row[K];
};

interface BelongingsJson {
  issues: AsJson<IssueRow>[];
  dispute: AsJson<DisputeRow> | null;
}

/**
 * The issues (oldest first) and the latest dispute of the experiment of the enclosing
 * selection from `experiments`, as JSON columns `issues` and `dispute`.
 */
function belongings(eb: ExpressionBuilder<ExperimentsDb, "experiments">) {
  // PostgreSQL evaluates a CASE branch only when it is taken: an experiment without an
  // operator (see mayHaveBelongings) runs neither subquery.
  const unassigned = eb("experiments.operator_id", "is", null);
  return [
    sql<AsJson<IssueRow>[]>`case when ${unassigned} then '[]'::json else ${jsonArrayFrom(
      eb
        .selectFrom("experiment_issues")
        .selectAll("experiment_issues")
        .whereRef("experiment_issues.experiment_id", "=", "experiments.id")
        .orderBy("experiment_issues.reported_at")
        .orderBy("experiment_issues.id"),
    )} end`.as("issues"),
    sql<AsJson<DisputeRow> | null>`case when ${unassigned} then null else ${jsonObjectFrom(
      eb
        .selectFrom("disputes")
        .selectAll("disputes")
        .whereRef("disputes.experiment_id", "=", "experiments.id")
        .orderBy("disputes.created_at", "desc")
        .orderBy("disputes.id", "desc")
        .limit(1),
    )} end`.as("dispute"),
  ];
}

const instant = (text: string): Date => new Date(text);

function decodeIssue(issue: AsJson<IssueRow>): IssueRow {
  return { ...issue, reported_at: instant(issue.reported_at) };
}

function decodeDispute(dispute: AsJson<DisputeRow>): DisputeRow {
  return {
    ...dispute,
    created_at: instant(dispute.created_at),
    resolved_at: dispute.resolved_at === null ? null : instant(dispute.resolved_at),
  };
}

function recordOf(row: ExperimentRow, belongs: BelongingsJson): ExperimentRecord {
  return {
    ...row,
    issues: belongs.issues.map(decodeIssue),
    dispute: belongs.dispute === null ? null : decodeDispute(belongs.dispute),
  };
}

/** Columns the Experiment message does not show. */
type UnshownColumn =
  "raw_request" | "review_note" | "reviewed_by" | "reviewed_at" | "cancelled_by" | "payment_version";

/**
 * What a response shows of an experiment: a whole record (after a write), or a read of only
 * the columns the message needs; the request only as its text (`request_json`).
 */
export type ExperimentView = Omit<ExperimentRecord, UnshownColumn | "request">;

const VIEW_COLUMNS = [
  "id",
  "requester_account_id",
  "status",
  "experiment_type",
  "title",
  "cost_low_cents",
  "cost_typical_cents",
  "cost_high_cents",
  "turnaround_standard_days",
  "turnaround_expedited_days",
  "turnaround_days",
  "cost_breakdown",
  "operator_availability",
  "hold_cents",
  "review_reasons",
  "safety_flags",
  "protocol_proposal",
  "proposal_comments",
  "operator_id",
  "operator_lab_name",
  "operator_account_id",
  "claimed_at",
  "deadline",
  "estimated_start_date",
  "claim_notes",
  "started_at",
  "results_submitted_at",
  "completed_at",
  "approval_rating",
  "approval_feedback",
  "approved_at",
  "cancel_reason",
  "refund_cents",
  "operator_compensation_cents",
  "refund_status",
  "cancelled_at",
  "payment_status",
  "payment_held_cents",
  "payment_released_cents",
  "payment_refunded_cents",
  "payment_still_held_cents",
  "payment_updated_at",
  "job",
  "source_hypothesis_id",
  "version",
  "created_at",
  "updated_at",
  "submitted_at",
] as const satisfies readonly Exclude<keyof ExperimentRow, UnshownColumn | "request" | "request_json">[];

/**
 * Selects what an ExperimentView needs, with the belongings of each experiment, from a
 * (filtered) selection of experiments. The columns are listed, never `*`: a prepared
 * statement keeps its result shape when a migration adds a column.
 */
export function selectViews(experiments: SelectQueryBuilder<ExperimentsDb, "experiments", object>) {
  return experiments
    .select(VIEW_COLUMNS.map((column) => `experiments.${column}` as const))
    .select(requestText)
    .select(belongings);
}

type ViewRow = Omit<ExperimentView, "issues" | "dispute"> & {
  issues: AsJson<IssueRow>[];
  dispute: AsJson<DisputeRow> | null;
};

/** Rows of selectViews as views (the rows are fresh from the driver: decoded in place). */
export function viewsOf(rows: readonly ViewRow[]): ExperimentView[] {
  for (const row of rows) {
    const view = row as unknown as ExperimentView;
    view.issues = row.issues.length === 0 ? [] : row.issues.map(decodeIssue);
    view.dispute = row.dispute === null ? null : decodeDispute(row.dispute);
  }
  return rows as unknown as ExperimentView[];
}

const viewById = new FixedQuery<ExperimentsDb, { id: string }, ViewRow>(
  (db, value) => selectViews(db.selectFrom("experiments").where("experiments.id", "=", value("id"))),
  { prepared: true },
);

/** One experiment as shown, in one statement; not an experiment id: not found. */
export async function findView(db: Kysely<ExperimentsDb>, id: string): Promise<ExperimentView | undefined> {
  if (!isId("exp", id)) return undefined;
  const rows = await viewById.execute(db, { id });
  return viewsOf(rows)[0];
}

/**
 * Issues are reported by the assigned operator and a dispute names it, and an assignment is
 * never taken back: an experiment without an operator has neither, and costs no query.
 */
function mayHaveBelongings(row: ExperimentRow): boolean {
  return row.operator_id !== null;
}

/** The records of rows already read (typically just written): one statement at most. */
export async function loadRecords(
  db: Kysely<ExperimentsDb>,
  rows: readonly ExperimentRow[],
): Promise<ExperimentRecord[]> {
  const ids = rows.filter(mayHaveBelongings).map((row) => row.id);
  const found =
    ids.length === 0
      ? []
      : await db
          .selectFrom("experiments")
          .select("experiments.id")
          .select(belongings)
          .where("experiments.id", "in", ids)
          .execute();
  const byId = new Map(found.map((row) => [row.id, row as unknown as BelongingsJson]));
  return rows.map((row) => recordOf(row, byId.get(row.id) ?? { issues: [], dispute: null }));
}

export async function loadRecord(db: Kysely<ExperimentsDb>, row: ExperimentRow): Promise<ExperimentRecord> {
  const [record] = await loadRecords(db, [row]);
  return record!;
}

/** A record for an experiment just inserted: nothing can belong to it yet. */
export function newRecord(row: ExperimentRow): ExperimentRecord {
  return { ...row, issues: [], dispute: null };
}
