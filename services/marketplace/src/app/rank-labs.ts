import { NotFoundError, type Principal, parseLimit } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { CapacityLevelName } from "@petri/contracts/vocabulary";
import { activeJobCounts, findJob } from "../db/jobs.js";
import { activeOperators } from "../db/operators.js";
import type { MarketplaceDb } from "../db/schema.js";
import { canSeeExperiment, isStaff } from "../domain/authorization.js";
import { matchingRequirements } from "../domain/jobs/requirements.js";
import { RANK_LABS_OPERATOR_LIMIT, rankLabs } from "../domain/matching/lab-ranking.js";
import type { MatchScore } from "../domain/matching/score.js";
import { matchingOperatorOf } from "./operator-view.js";

export interface RankedLab {
  match: MatchScore;
  labName: string;
  /** Shown to staff only: a requester learns which labs fit by name, not their internal ids. */
  operatorId: string;
}

export interface LabRankingView {
  labs: RankedLab[];
  availability: CapacityLevelName;
}

/**
 * The labs matching an experiment, best first: for its requester the eligible labs (lab name,
 * score and its components), for staff also the ineligible ones with their failed filters.
 * Anyone else, and an experiment the marketplace has not seen, is 404. `limit` 1..100
 * (default 20) bounds the answer; availability counts every eligible lab of the scan.
 */
export function makeRankLabs(deps: { db: Kysely<MarketplaceDb>; clock: { now(): Date } }) {
  return async function rankLabsUseCase(
    principal: Principal,
    input: { experimentId: string; limit: number },
  ): Promise<LabRankingView> {
    const limit = parseLimit(input.limit);
    const job = await findJob(deps.db, input.experimentId);
    if (!job || !canSeeExperiment(principal, job.requesterAccountId))
      throw new NotFoundError("experiment", input.experimentId);
    const requirements = matchingRequirements(job.requirements);
    if (requirements === undefined) return { labs: [], availability: "none" };

    const staff = isStaff(principal);
    const records = await activeOperators(deps.db, RANK_LABS_OPERATOR_LIMIT);
    const counts = await activeJobCounts(
      deps.db,
      records.map((record) => record.id),
    );
    const byId = new Map(records.map((record) => [record.id, record]));
    const ranking = rankLabs(
      records.map((operator) => matchingOperatorOf({ operator, activeJobs: counts.get(operator.id) ?? 0 })),
      requirements,
      deps.clock.now(),
      { includeIneligible: staff },
    );
    return {
      availability: ranking.availability,
      labs: ranking.labs.slice(0, limit).map((match) => ({
        match,
        labName: byId.get(match.operator_id)?.labName ?? "",
        operatorId: staff ? match.operator_id : "",
      })),
    };
  };
}
