import { type Principal, newId } from "@petri/service-kit";
import { insertHypothesis } from "../db/hypotheses.js";
import { type SubmittedExperiment, hypothesisFromExperiment } from "../domain/from-experiment.js";
import type { Hypothesis } from "../domain/hypothesis.js";
import type { ChangingDeps } from "./deps.js";

/** Saves the hypothesis of one of the caller's submitted experiments (domain/from-experiment.ts). */
export function makeCreateHypothesisFromExperiment(deps: ChangingDeps) {
  return async function createHypothesisFromExperiment(
    principal: Principal,
    input: { experiment: SubmittedExperiment; title: string },
  ): Promise<Hypothesis> {
    const content = hypothesisFromExperiment(principal.accountId, input.experiment, input.title);
    const now = deps.clock.now();
    return insertHypothesis(deps.db, {
      id: newId("hyp", now),
      ownerAccountId: principal.accountId,
      ...content,
      status: "DRAFT",
      experimentsCount: 0,
      version: 1,
      createdAt: now,
      updatedAt: now,
    });
  };
}
