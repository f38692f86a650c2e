/** experiment_issues: what the assigned operator reported, oldest first per experiment. */
import type { Kysely } from "kysely";
import type { ExperimentsDb, IssueRow } from "./schema.js";

export async function insertIssue(db: Kysely<ExperimentsDb>, issue: IssueRow): Promise<IssueRow> {
  return db.insertInto("experiment_issues").values(issue).returningAll().executeTakeFirstOrThrow();
}

export async function countIssues(db: Kysely<ExperimentsDb>, experimentId: string): Promise<number> {
  const { n } = await db
    .selectFrom("experiment_issues")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("experiment_id", "=", experimentId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** The issues of each experiment, oldest first (experiments without any are absent). */
export async function issuesOf(
  db: Kysely<ExperimentsDb>,
  experimentIds: readonly string[],
): Promise<Map<string, IssueRow[]>> {
  const byExperiment = new Map<string, IssueRow[]>();
  if (experimentIds.length === 0) return byExperiment;
  const rows = await db
    .selectFrom("experiment_issues")
    .selectAll()
    .where("experiment_id", "in", [...experimentIds])
    .orderBy("experiment_id")
    .orderBy("reported_at")
    .orderBy("id")
    .execute();
  for (const row of rows) {
    const list = byExperiment.get(row.experiment_id) ?? [];
    list.push(row);
    byExperiment.set(row.experiment_id, list);
  }
  return byExperiment;
}
