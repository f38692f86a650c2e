import type { Kysely } from "kysely";
import { type OutcomeFields, outcomeTotals, recordOutcome } from "../db/job-outcomes.js";
import { findOperator, saveOperatorQuality } from "../db/operators.js";
import type { MarketplaceDb } from "../db/schema.js";
import { qualityFromOutcomes } from "../domain/operators/quality.js";

/**
 * An approval, dispute or dispute resolution updates what the job says about its operator,
 * then the operator's quality metrics are recomputed from all its outcomes (idempotent and
 * order-free: see db/job-outcomes.ts). The operator row is locked first, so two outcomes of one
 * operator recorded at once are counted one after the other and neither is lost. An outcome of
 * an operator the marketplace does not know is kept; there is no metric to update.
 */
export async function recordJobOutcome(
  trx: Kysely<MarketplaceDb>,
  key: { operatorId: string; experimentId: string },
  fields: OutcomeFields,
  now: Date,
): Promise<void> {
  if (key.operatorId === "") return;
  const operator = await findOperator(trx, key.operatorId, { lock: true });
  await recordOutcome(trx, key, fields, now);
  if (!operator) return;
  await saveOperatorQuality(trx, operator.id, qualityFromOutcomes(await outcomeTotals(trx, operator.id)));
}
