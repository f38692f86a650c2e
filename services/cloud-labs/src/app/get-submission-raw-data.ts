import { NotFoundError, type Principal } from "@petri/service-kit";
import type { LabPlan } from "../domain/plan.js";
import { simulatedRawData } from "../domain/simulated-results.js";
import type { ReadingDeps } from "./deps.js";
import { ownedSubmission } from "./owned-submission.js";

/** The simulated raw data of a completed sandbox submission (CSV); a real lab's is at its own URL. */
export function makeGetSubmissionRawData(deps: ReadingDeps) {
  return async function getSubmissionRawData(
    principal: Principal,
    id: string,
  ): Promise<{ contentType: string; data: Uint8Array }> {
    const row = await ownedSubmission(deps.db, principal, id);
    if (row.adapter !== "sandbox" || row.status !== "completed")
      throw new NotFoundError("raw data of submission", id);
    const csv = simulatedRawData(row.plan as unknown as LabPlan);
    return { contentType: "text/csv; charset=utf-8", data: new TextEncoder().encode(csv) };
  };
}
