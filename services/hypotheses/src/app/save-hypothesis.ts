/**
 * How the use cases write a hypothesis, each write with its HypothesisSaved in the same
 * transaction (hypothesis-events.ts): a new one in the caller's library, or changes to one
 * the caller read.
 */
import { type Principal, newId } from "@petri/service-kit";
import { insertHypothesis, updateHypothesis } from "../db/hypotheses.js";
import type { Hypothesis, HypothesisChanges, HypothesisContent } from "../domain/hypothesis.js";
import type { ChangingDeps } from "./deps.js";
import { recordHypothesisSaved } from "./hypothesis-events.js";

/** A new hypothesis of the caller's: DRAFT, no experiments yet. */
export async function saveNewHypothesis(
  deps: ChangingDeps,
  principal: Principal,
  content: HypothesisContent & Pick<Hypothesis, "sourceExperimentId">,
): Promise<Hypothesis> {
  const now = deps.clock.now();
  return deps.unitOfWork.run(async (trx) => {
    const saved = await insertHypothesis(trx, {
      id: newId("hyp", now),
      ownerAccountId: principal.accountId,
      ...content,
      status: "DRAFT",
      experimentsCount: 0,
      version: 1,
      createdAt: now,
      updatedAt: now,
    });
    await recordHypothesisSaved(trx, saved, now);
    return saved;
  });
}

/** `current` with `changes` (compare-and-set on the version read, db/hypotheses.ts). */
export async function saveHypothesisChanges(
  deps: ChangingDeps,
  current: Hypothesis,
  changes: HypothesisChanges,
): Promise<Hypothesis> {
  const now = deps.clock.now();
  return deps.unitOfWork.run(async (trx) => {
    const saved = await updateHypothesis(trx, current, { ...changes, updatedAt: now });
    await recordHypothesisSaved(trx, saved, now);
    return saved;
  });
}
