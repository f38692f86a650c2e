/**
 * experiment_views: this service's read model of the experiments, written by the experiments
 * events consumer only. A row is replaced only by a newer version, so an event redelivered or
 * applied out of order never rolls an experiment back.
 */
import type { Kysely } from "kysely";
import type { SubmittedExperiment } from "../domain/from-experiment.js";
import type { HypothesesDb } from "./schema.js";

export interface ExperimentView extends SubmittedExperiment {
  version: number;
}

export async function upsertExperimentView(db: Kysely<HypothesesDb>, view: ExperimentView): Promise<void> {
  const values = {
    id: view.id,
    requester_account_id: view.requesterAccountId,
    status: view.status,
    title: view.title,
    experiment_type: view.experimentType,
    request_json: view.requestJson,
    version: view.version,
  };
  await db
    .insertInto("experiment_views")
    .values(values)
    .onConflict((oc) =>
      oc
        .column("id")
        .doUpdateSet({
          requester_account_id: (eb) => eb.ref("excluded.requester_account_id"),
          status: (eb) => eb.ref("excluded.status"),
          title: (eb) => eb.ref("excluded.title"),
          experiment_type: (eb) => eb.ref("excluded.experiment_type"),
          request_json: (eb) => eb.ref("excluded.request_json"),
          version: (eb) => eb.ref("excluded.version"),
        })
        .where("experiment_views.version", "<", (eb) => eb.ref("excluded.version")),
    )
    .execute();
}

export async function findExperimentView(
  db: Kysely<HypothesesDb>,
  experimentId: string,
): Promise<ExperimentView | undefined> {
  const row = await db
    .selectFrom("experiment_views")
    .selectAll()
    .where("id", "=", experimentId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    requesterAccountId: row.requester_account_id,
    status: row.status,
    title: row.title,
    experimentType: row.experiment_type,
    requestJson: row.request_json,
    version: Number(row.version),
  };
}
