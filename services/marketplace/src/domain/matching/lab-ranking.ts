/**
 * RankLabs: the labs that match one experiment, for its requester (eligible labs only) or
 * staff (also the ineligible ones, with the hard filters they fail, after every eligible lab).
 * The scan is bounded to RANK_LABS_OPERATOR_LIMIT active operators.
 */
import type { CapacityLevelName } from "@petri/contracts/vocabulary";
import type { JobRequirements, Operator } from "../operators/index.js";
import { availabilityFromCount } from "./availability.js";
import { type MatchScore, scoreMatch } from "./score.js";

/** How many active operators one ranking considers. */
export const RANK_LABS_OPERATOR_LIMIT = 2_000;

export interface LabRanking {
  /** Eligible labs best first, then (staff only) ineligible ones best first; ties by operator id. */
  labs: MatchScore[];
  eligibleCount: number;
  availability: CapacityLevelName;
}

function byScoreThenId(a: MatchScore, b: MatchScore): number {
  if (a.score !== b.score) return b.score - a.score;
  return a.operator_id < b.operator_id ? -1 : a.operator_id > b.operator_id ? 1 : 0;
}

export function rankLabs(
  operators: readonly Operator[],
  job: JobRequirements,
  now: Date,
  options: { includeIneligible: boolean },
): LabRanking {
  const scores = operators.map((operator) => scoreMatch(operator, job, now));
  const eligible = scores.filter((s) => s.eligible).sort(byScoreThenId);
  const ineligible = options.includeIneligible ? scores.filter((s) => !s.eligible).sort(byScoreThenId) : [];
  return {
    labs: [...eligible, ...ineligible],
    eligibleCount: eligible.length,
    availability: availabilityFromCount(eligible.length),
  };
}
