import { type Principal, newId } from "@petri/service-kit";
import { insertHypothesis } from "../db/hypotheses.js";
import { type Hypothesis, type NewHypothesisInput, newHypothesisContent } from "../domain/hypothesis.js";
import type { ChangingDeps } from "./deps.js";
import { recordHypothesisSaved } from "./hypothesis-events.js";

/** Saves a hypothesis (manual or engine-sourced) in the caller's library: DRAFT, no experiments yet. */
export function makeCreateHypothesis(deps: ChangingDeps) {
  return async function createHypothesis(
    principal: Principal,
    input: NewHypothesisInput,
  ): Promise<Hypothesis> {
    const content = newHypothesisContent(input);
    const now = deps.clock.now();
    return deps.unitOfWork.run(async (trx) => {
      const saved = await insertHypothesis(trx, {
        id: newId("hyp", now),
        ownerAccountId: principal.accountId,
        ...content,
        sourceExperimentId: null,
        status: "DRAFT",
        experimentsCount: 0,
        version: 1,
        createdAt: now,
        updatedAt: now,
      });
      await recordHypothesisSaved(trx, saved, now);
      return saved;
    });
  };
}
