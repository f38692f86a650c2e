/**
 * How many operators could take a job now: the active operators of the operator_eligibility
 * projection verified for its type, each checked with the shared eligibility rule against its
 * active jobs (the same rule and snapshot a claim is checked with). Feeds
 * `operator_availability` of estimates.
 */
import { eligibilityFailures } from "@petri/contracts";
import type { Kysely } from "kysely";
import { eligibilitySnapshot, listCandidatesWithActiveJobs } from "../db/operator-eligibility.js";
import type { ExperimentsDb } from "../db/schema.js";
import type { JobRequirements } from "../domain/jobs/index.js";

export async function countQualifiedOperators(
  db: Kysely<ExperimentsDb>,
  job: JobRequirements,
  now: Date,
): Promise<number> {
  if (job.experimentType === "") return 0;
  const candidates = await listCandidatesWithActiveJobs(db, job.experimentType);
  return candidates.filter(
    (row) => eligibilityFailures(eligibilitySnapshot(row), job, row.active_jobs, now).length === 0,
  ).length;
}
