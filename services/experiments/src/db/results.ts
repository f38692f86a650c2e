/** experiment_results and result_files: the submitted results record and its stored files. */
import type { JsonValue } from "@petri/db";
import type { Insertable, Kysely } from "kysely";
import type { ExperimentsDb, ResultFileRow, ResultFilesTable, ResultsRow } from "./schema.js";

export async function insertResults(
  db: Kysely<ExperimentsDb>,
  values: {
    experimentId: string;
    results: { [key: string]: JsonValue };
    submittedBy: string;
    submittedAt: Date;
  },
): Promise<ResultsRow> {
  return db
    .insertInto("experiment_results")
    .values({
      experiment_id: values.experimentId,
      results: JSON.stringify(values.results),
      submitted_by: values.submittedBy,
      submitted_at: values.submittedAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function insertResultFiles(
  db: Kysely<ExperimentsDb>,
  files: readonly ResultFileRow[],
): Promise<void> {
  if (files.length === 0) return;
  await db
    .insertInto("result_files")
    .values(
      files.map(
        (file) =>
          ({
            ...file,
            step: file.step === null ? null : JSON.stringify(file.step),
          }) as Insertable<ResultFilesTable>,
      ),
    )
    .execute();
}

export async function findResults(
  db: Kysely<ExperimentsDb>,
  experimentId: string,
): Promise<ResultsRow | undefined> {
  return db
    .selectFrom("experiment_results")
    .selectAll()
    .where("experiment_id", "=", experimentId)
    .executeTakeFirst();
}

/** The files of one submission, in the order they were submitted. */
export async function listResultFiles(
  db: Kysely<ExperimentsDb>,
  experimentId: string,
): Promise<ResultFileRow[]> {
  return db
    .selectFrom("result_files")
    .selectAll()
    .where("experiment_id", "=", experimentId)
    .orderBy("position")
    .execute();
}

export async function findResultFile(
  db: Kysely<ExperimentsDb>,
  fileId: string,
): Promise<ResultFileRow | undefined> {
  return db.selectFrom("result_files").selectAll().where("file_id", "=", fileId).executeTakeFirst();
}
