import type { Principal } from "@petri/service-kit";
import type { Hypothesis } from "../domain/hypothesis.js";
import type { ReadingDeps } from "./deps.js";
import { ownedHypothesis } from "./owned-hypothesis.js";

/** One of the caller's hypotheses, archived ones included; another account's is 404. */
export function makeGetHypothesis(deps: ReadingDeps) {
  return async function getHypothesis(principal: Principal, id: string): Promise<Hypothesis> {
    return ownedHypothesis(deps.db, principal, id);
  };
}
