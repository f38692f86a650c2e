/**
 * hypothesis_views, this service's read model of the library hypotheses (D349), written only
 * by the HypothesisSaved consumer. A row is replaced only by a newer version, in one statement,
 * so a redelivered or late event never rolls a hypothesis back (consumed without inbox, D329).
 */
import { FixedQuery } from "@petri/db";
import type { Kysely, Selectable } from "kysely";
import type { HypothesisView, JsonObject } from "../domain/from-hypothesis/index.js";
import type { ExperimentsDb, HypothesisViewsTable } from "./schema.js";

type ViewValues = Omit<HypothesisViewsTable, "version"> & { version: number };

const COLUMNS = [
  "owner_account_id",
  "status",
  "title",
  "statement",
  "null_hypothesis",
  "experiment_type",
  "intake_draft_json",
  "version",
] as const;

const upsertView = new FixedQuery<ExperimentsDb, ViewValues, never>(
  (db, value) =>
    db
      .insertInto("hypothesis_views")
      .values({
        id: value("id"),
        ...(Object.fromEntries(COLUMNS.map((column) => [column, value(column)])) as Omit<ViewValues, "id">),
      })
      .onConflict((oc) =>
        oc
          .column("id")
          .doUpdateSet(
            Object.fromEntries(COLUMNS.map((column) => [column, (eb: any) => eb.ref(`excluded.${column}`)])),
          )
          .where("hypothesis_views.version", "<", (eb) => eb.ref("excluded.version")),
      ),
  { prepared: true },
);

const selectView = new FixedQuery<ExperimentsDb, { id: string }, Selectable<HypothesisViewsTable>>(
  (db, value) => db.selectFrom("hypothesis_views").selectAll().where("id", "=", value("id")),
  { prepared: true },
);

const orNull = (text: string) => (text === "" ? null : text);

/** Takes `view` unless the row holds the same or a newer version. */
export async function upsertHypothesisView(db: Kysely<ExperimentsDb>, view: HypothesisView): Promise<void> {
  await upsertView.execute(db, {
    id: view.id,
    owner_account_id: view.ownerAccountId,
    status: view.status,
    title: view.title,
    statement: view.statement,
    null_hypothesis: view.nullHypothesis ?? "",
    experiment_type: view.experimentType ?? "",
    intake_draft_json: view.intakeDraft === null ? "" : JSON.stringify(view.intakeDraft),
    version: view.version,
  });
}

export async function findHypothesisView(
  db: Kysely<ExperimentsDb>,
  id: string,
): Promise<HypothesisView | undefined> {
  const row = await selectView.executeTakeFirst(db, { id });
  if (!row) return undefined;
  return {
    id: row.id,
    ownerAccountId: row.owner_account_id,
    status: row.status,
    title: row.title,
    statement: row.statement,
    nullHypothesis: orNull(row.null_hypothesis),
    experimentType: orNull(row.experiment_type),
    intakeDraft: row.intake_draft_json === "" ? null : (JSON.parse(row.intake_draft_json) as JsonObject),
    version: Number(row.version),
  };
}
