import { NotFoundError, type Principal } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { findHypothesis } from "../db/hypotheses.js";
import type { HypothesesDb } from "../db/schema.js";
import { ownsHypothesis } from "../domain/authorization.js";
import type { Hypothesis } from "../domain/hypothesis.js";

/** The caller's hypothesis `id`; 404 when it does not exist or is another account's. */
export async function ownedHypothesis(
  db: Kysely<HypothesesDb>,
  principal: Principal,
  id: string,
): Promise<Hypothesis> {
  const hypothesis = await findHypothesis(db, id);
  if (!hypothesis || !ownsHypothesis(principal, hypothesis)) throw new NotFoundError("hypothesis", id);
  return hypothesis;
}
