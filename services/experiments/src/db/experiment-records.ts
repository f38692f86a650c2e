/**
 * An experiment with what belongs to it in other tables (its issues and its dispute): what
 * every response and every event carries as the Experiment message.
 *
 * The belongings are read in the same statement as the experiment (correlated subqueries
 * aggregated to JSON), so a read is one round trip to the database whatever the number of
 * experiments.
 */
import { isId } from "@petri/service-kit";
import type { ExpressionBuilder, Kysely, SelectQueryBuilder } from "kysely";
import { jsonArrayFrom, jsonObjectFrom } from "kysely/helpers/postgres";
import type { DisputeRow, ExperimentRow, ExperimentsDb, IssueRow } from "./schema.js";

export type ExperimentRecord = ExperimentRow & {
  /** Oldest first. */
  issues: IssueRow[];
  /** The latest dispute, or null. */
  dispute: DisputeRow | null;
};

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
  return [
    jsonArrayFrom(
      eb
        .selectFrom("experiment_issues")
        .selectAll("experiment_issues")
        .whereRef("experiment_issues.experiment_id", "=", "experiments.id")
        .orderBy("experiment_issues.reported_at")
        .orderBy("experiment_issues.id"),
    ).as("issues"),
    jsonObjectFrom(
      eb
        .selectFrom("disputes")
        .selectAll("disputes")
        .whereRef("disputes.experiment_id", "=", "experiments.id")
        .orderBy("disputes.created_at", "desc")
        .orderBy("disputes.id", "desc")
        .limit(1),
    ).as("dispute"),
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

/** Selects experiments.* with the belongings of each, from a (filtered) selection of experiments. */
export function withRecords(experiments: SelectQueryBuilder<ExperimentsDb, "experiments", object>) {
  return experiments.selectAll("experiments").select(belongings);
}

/** Rows of selectRecords as records. */
export function recordsOf(
  rows: readonly (ExperimentRow & { issues: unknown; dispute: unknown })[],
): ExperimentRecord[] {
  return rows.map((row) => {
    const { issues, dispute, ...experiment } = row;
    return recordOf(experiment as ExperimentRow, { issues, dispute } as BelongingsJson);
  });
}

/** One experiment with its belongings, in one statement; not an experiment id: not found. */
export async function findRecord(
  db: Kysely<ExperimentsDb>,
  id: string,
): Promise<ExperimentRecord | undefined> {
  if (!isId("exp", id)) return undefined;
  const row = await withRecords(
    db.selectFrom("experiments").where("experiments.id", "=", id),
  ).executeTakeFirst();
  return row ? recordsOf([row])[0] : undefined;
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
