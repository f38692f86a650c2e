/**
 * The operator_capacity projection: which verified operators could take a request. The
 * marketplace owns operators; until it publishes operator events (a later issue adds the
 * consumer that fills this table) it is empty, and every estimate says availability "none".
 */
import type { Kysely } from "kysely";
import type { ExperimentsDb } from "./schema.js";

export interface CapacityQuery {
  experimentType: string;
  /** 1 or 2: the request's biosafety level; operators need max_bsl >= it. */
  bslLevel: number;
  /** The request uses human-derived material: only operators approved for human samples. */
  humanDerivedMaterial: boolean;
}

/** Distinct operators verified for the type, at a sufficient BSL, with capacity left. */
export async function countOperatorsAbleToTake(
  db: Kysely<ExperimentsDb>,
  query: CapacityQuery,
): Promise<number> {
  let q = db
    .selectFrom("operator_capacity")
    .select((eb) => eb.fn.count<number>("operator_id").distinct().as("n"))
    .where("experiment_type", "=", query.experimentType)
    .where("max_bsl", ">=", query.bslLevel)
    .where("current_capacity", "<>", "none");
  if (query.humanDerivedMaterial) q = q.where("human_samples_approved", "=", true);
  const { n } = await q.executeTakeFirstOrThrow();
  return Number(n);
}
