/**
 * How many operators could take a job now: the active operators of the operator_eligibility
 * projection verified for its type, each checked with the shared eligibility rule against its
 * active jobs (the same rule and snapshot a claim is checked with). Feeds
 * `operator_availability` of estimates.
 */
import { eligibilityFailures } from "@petri/contracts";
import type { Kysely } from "kysely";
import { activeJobsByOperator } from "../db/experiments.js";
import { eligibilitySnapshot, listActiveEligibility } from "../db/operator-eligibility.js";
import type { ExperimentsDb } from "../db/schema.js";
import type { JobRequirements } from "../domain/jobs/index.js";

export async function countQualifiedOperators(
  db: Kysely<ExperimentsDb>,
  job: JobRequirements,
  now: Date,
): Promise<number> {
  if (job.experimentType === "") return 0;
  const candidates = await listActiveEligibility(db, job.experimentType);
  if (candidates.length === 0) return 0;
  const activeJobs = await activeJobsByOperator(
    db,
    candidates.map((row) => row.operator_id),
  );
  return candidates.filter(
    (row) =>
      eligibilityFailures(eligibilitySnapshot(row), job, activeJobs.get(row.operator_id) ?? 0, now).length ===
      0,
  ).length;
}
