/**
 * operator_job_outcomes: what each job taught about its operator. Every event sets only its
 * own columns of the (operator, experiment) row, to values the event alone determines, so any
 * arrival order and any replay give the same row; the metrics are then recomputed from all of
 * the operator's rows.
 */
import type { DisputeOutcomeName } from "@petri/contracts/vocabulary";
import { type Kysely, sql } from "kysely";
import type { OutcomeTotals } from "../domain/operators/quality.js";
import type { MarketplaceDb } from "./schema.js";

export type OutcomeFields =
  | { kind: "approved"; onTime: boolean; rating: number | null }
  | { kind: "disputed" }
  | { kind: "dispute_resolved"; outcome: DisputeOutcomeName };

function columns(fields: OutcomeFields) {
  switch (fields.kind) {
    case "approved":
      return { completed: true, on_time: fields.onTime, rating: fields.rating };
    case "disputed":
      return { disputed: true };
    case "dispute_resolved":
      return { disputed: true, dispute_outcome: fields.outcome };
  }
}

export async function recordOutcome(
  db: Kysely<MarketplaceDb>,
  key: { operatorId: string; experimentId: string },
  fields: OutcomeFields,
  now: Date,
): Promise<void> {
  const set = columns(fields);
  await db
    .insertInto("operator_job_outcomes")
    .values({ operator_id: key.operatorId, experiment_id: key.experimentId, ...set, updated_at: now })
    .onConflict((oc) => oc.columns(["operator_id", "experiment_id"]).doUpdateSet({ ...set, updated_at: now }))
    .execute();
}

export async function outcomeTotals(db: Kysely<MarketplaceDb>, operatorId: string): Promise<OutcomeTotals> {
  const row = await db
    .selectFrom("operator_job_outcomes")
    .select([
      sql<number>`count(*) filter (where completed)::int`.as("completed"),
      sql<number>`count(*) filter (where completed and on_time)::int`.as("on_time"),
      sql<number>`count(rating) filter (where completed)::int`.as("ratings"),
      sql<number>`coalesce(sum(rating) filter (where completed), 0)::int`.as("rating_sum"),
      sql<number>`count(*) filter (where completed or disputed)::int`.as("delivered"),
      sql<number>`count(*) filter (where disputed and dispute_outcome is distinct from 'operator')::int`.as(
        "disputes_against",
      ),
    ])
    .where("operator_id", "=", operatorId)
    .executeTakeFirstOrThrow();
  return {
    completed: row.completed,
    onTime: row.on_time,
    ratings: row.ratings,
    ratingSum: row.rating_sum,
    delivered: row.delivered,
    disputesAgainst: row.disputes_against,
  };
}
