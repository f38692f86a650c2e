/**
 * The hold target of each experiment: the amount its escrow hold should reach, set by the
 * newest experiment version's estimate (an older version never overwrites a newer one).
 */
import type { QueryCreator, Transaction } from "kysely";
import type { LedgerTables } from "./schema.js";

export interface HoldTarget {
  targetCents: number;
  /** The experiment version whose estimate set the target. */
  version: number;
}

/** The experiment's hold target, locked for the caller's transaction; undefined before the hold. */
export async function lockHoldTarget<DB extends LedgerTables>(
  transaction: Transaction<DB>,
  experimentId: string,
): Promise<HoldTarget | undefined> {
  const trx = transaction as unknown as Transaction<LedgerTables>;
  const row = await trx
    .selectFrom("escrow_hold_targets")
    .select(["target_cents", "target_version"])
    .where("experiment_id", "=", experimentId)
    .forUpdate()
    .executeTakeFirst();
  return row && { targetCents: row.target_cents, version: row.target_version };
}

/** Sets the hold target unless a newer version set it already. */
export async function saveHoldTarget<DB extends LedgerTables>(
  transaction: Transaction<DB>,
  experimentId: string,
  target: HoldTarget,
  now: Date,
): Promise<void> {
  const trx = transaction as unknown as Transaction<LedgerTables>;
  await upsertHoldTarget(trx, experimentId, target, now).execute();
}

/** The upsert of a hold target (also a CTE of recordHold's statement). */
export function upsertHoldTarget(
  db: QueryCreator<LedgerTables>,
  experimentId: string,
  target: HoldTarget,
  now: Date,
) {
  return db
    .insertInto("escrow_hold_targets")
    .values({
      experiment_id: experimentId,
      target_cents: target.targetCents,
      target_version: target.version,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc
        .column("experiment_id")
        .doUpdateSet((eb) => ({
          target_cents: eb.ref("excluded.target_cents"),
          target_version: eb.ref("excluded.target_version"),
          updated_at: eb.ref("excluded.updated_at"),
        }))
        .where("escrow_hold_targets.target_version", "<", (eb) => eb.ref("excluded.target_version")),
    );
}
