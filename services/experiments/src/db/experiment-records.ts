/**
 * An experiment with what belongs to it in other tables (its issues and its dispute): what
 * every response and every event carries as the Experiment message.
 */
import type { Kysely } from "kysely";
import { latestDisputesOf } from "./disputes.js";
import { issuesOf } from "./issues.js";
import type { DisputeRow, ExperimentRow, ExperimentsDb, IssueRow } from "./schema.js";

export type ExperimentRecord = ExperimentRow & {
  /** Oldest first. */
  issues: IssueRow[];
  /** The latest dispute, or null. */
  dispute: DisputeRow | null;
};

export async function loadRecords(
  db: Kysely<ExperimentsDb>,
  rows: readonly ExperimentRow[],
): Promise<ExperimentRecord[]> {
  const ids = rows.map((row) => row.id);
  // One after the other: `db` may be a transaction, which runs one query at a time.
  const issues = await issuesOf(db, ids);
  const disputes = await latestDisputesOf(db, ids);
  return rows.map((row) => ({
    ...row,
    issues: issues.get(row.id) ?? [],
    dispute: disputes.get(row.id) ?? null,
  }));
}

export async function loadRecord(db: Kysely<ExperimentsDb>, row: ExperimentRow): Promise<ExperimentRecord> {
  const [record] = await loadRecords(db, [row]);
  return record!;
}

/** A record for an experiment just inserted: nothing can belong to it yet. */
export function newRecord(row: ExperimentRow): ExperimentRecord {
  return { ...row, issues: [], dispute: null };
}
