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
