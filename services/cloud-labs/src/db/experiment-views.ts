/**
 * experiment_views: this service's read model of the experiments, written by the experiments
 * events consumer only. A row is replaced only by a newer version, so an event redelivered or
 * applied out of order never rolls an experiment back.
 */
import type { Kysely } from "kysely";
import type { CloudLabsDb } from "./schema.js";

export interface ExperimentView {
  id: string;
  requesterAccountId: string;
  /** The public status name, e.g. "draft", "open". */
  status: string;
  /** The stored request (every default applied), as JSON text. */
  requestJson: string;
  version: number;
}

export async function upsertExperimentView(db: Kysely<CloudLabsDb>, view: ExperimentView): Promise<void> {
  await db
    .insertInto("experiment_views")
    .values({
      id: view.id,
      requester_account_id: view.requesterAccountId,
      status: view.status,
      request_json: view.requestJson,
      version: view.version,
    })
    .onConflict((oc) =>
      oc
        .column("id")
        .doUpdateSet({
          requester_account_id: (eb) => eb.ref("excluded.requester_account_id"),
          status: (eb) => eb.ref("excluded.status"),
          request_json: (eb) => eb.ref("excluded.request_json"),
          version: (eb) => eb.ref("excluded.version"),
        })
        .where("experiment_views.version", "<", (eb) => eb.ref("excluded.version")),
    )
    .execute();
}

export async function findExperimentView(
  db: Kysely<CloudLabsDb>,
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
    requestJson: row.request_json,
    version: Number(row.version),
  };
}
