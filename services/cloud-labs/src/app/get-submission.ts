import type { Principal } from "@petri/service-kit";
import type { SubmissionRow } from "../db/schema.js";
import type { ReadingDeps } from "./deps.js";
import { ownedSubmission } from "./owned-submission.js";

export function makeGetSubmission(deps: ReadingDeps) {
  return function getSubmission(principal: Principal, id: string): Promise<SubmissionRow> {
    return ownedSubmission(deps.db, principal, id);
  };
}
