/**
 * The operator's job feed (ListJobs): open jobs the operator may take, best match first.
 *
 * - Candidates: the newest FEED_CANDIDATE_LIMIT open jobs (a bounded scan), minus the
 *   operator's own requests.
 * - Hard filters: the shared eligibility rule through isQualifiedFor; a job that cannot be
 *   matched at all (unknown type, unsupported BSL) is never offered.
 * - Order: match score descending, then posted_at ascending (older first among equals), then
 *   experiment id, which makes the order total, so the keyset cursor (score, posted_at, id)
 *   pages without repeats or gaps.
 * - Privacy: any setting but "open" replaces the title with a neutral one naming only the type
 *   ("Private MIC/MBC request"); the Job fields carry nothing else from the request.
 */
import type { ExperimentTypeName } from "@petri/contracts/vocabulary";
import { type MatchScore, scoreMatch } from "../matching/score.js";
import type { Operator } from "../operators/operator.js";
import type { JobRecord } from "./projection.js";
import { matchingRequirements } from "./requirements.js";

/** How many of the newest open jobs one feed request considers. */
export const FEED_CANDIDATE_LIMIT = 1_000;

export const EXPERIMENT_TYPE_LABELS: Readonly<Record<ExperimentTypeName, string>> = {
  SANGER_PLASMID_VERIFICATION: "Sanger plasmid verification",
  QPCR_EXPRESSION: "qPCR expression",
  CELL_VIABILITY_IC50: "cell viability IC50",
  ENZYME_INHIBITION_IC50: "enzyme inhibition IC50",
  MICROBIAL_GROWTH_MATRIX: "microbial growth matrix",
  MIC_MBC_ASSAY: "MIC/MBC",
  ZONE_OF_INHIBITION: "zone of inhibition",
  CUSTOM: "custom",
};

/** True for every privacy setting but "open" (delayed ones are private until they lapse). */
export function isPrivateJob(job: Pick<JobRecord, "requirements">): boolean {
  return job.requirements.privacy !== "" && job.requirements.privacy !== "open";
}

/** The title the feed shows: the request's own, or a neutral one for a private request. */
export function feedTitle(job: Pick<JobRecord, "requirements" | "title">): string {
  if (!isPrivateJob(job)) return job.title;
  const label = Object.hasOwn(EXPERIMENT_TYPE_LABELS, job.requirements.experiment_type)
    ? EXPERIMENT_TYPE_LABELS[job.requirements.experiment_type as ExperimentTypeName]
    : "experiment";
  return `Private ${label} request`;
}

export interface RankedJob {
  job: JobRecord & { postedAt: Date };
  match: MatchScore;
}

/** The sort key of a ranked job, as the feed cursor carries it. */
export interface FeedPosition {
  score: number;
  postedAt: Date;
  experimentId: string;
}

export function positionOf(ranked: RankedJob): FeedPosition {
  return { score: ranked.match.score, postedAt: ranked.job.postedAt, experimentId: ranked.job.experimentId };
}

/** Negative when `a` comes first in the feed. */
export function compareFeedPositions(a: FeedPosition, b: FeedPosition): number {
  if (a.score !== b.score) return b.score - a.score;
  const at = a.postedAt.getTime() - b.postedAt.getTime();
  if (at !== 0) return at;
  return a.experimentId < b.experimentId ? -1 : a.experimentId > b.experimentId ? 1 : 0;
}

/**
 * The open jobs `operator` qualifies for, ranked. `operator.active_jobs` must be its current
 * count of claimed and in-progress jobs; its own requests must already be left out.
 */
export function rankJobsFor(operator: Operator, jobs: readonly JobRecord[], now: Date): RankedJob[] {
  const ranked: RankedJob[] = [];
  for (const job of jobs) {
    const requirements = matchingRequirements(job.requirements);
    if (job.status !== "open" || job.postedAt === null || requirements === undefined) continue;
    const match = scoreMatch(operator, requirements, now);
    if (match.eligible) ranked.push({ job: { ...job, postedAt: job.postedAt }, match });
  }
  return ranked.sort((a, b) => compareFeedPositions(positionOf(a), positionOf(b)));
}

export interface FeedPage {
  items: RankedJob[];
  total: number;
  hasMore: boolean;
  /** The position of the last item when there is a further page. */
  next?: FeedPosition;
}

/** The page of `limit` items after `after` (from the start without it). */
export function feedPage(ranked: readonly RankedJob[], limit: number, after?: FeedPosition): FeedPage {
  const rest =
    after === undefined ? ranked : ranked.filter((r) => compareFeedPositions(positionOf(r), after) > 0);
  const items = rest.slice(0, limit);
  const hasMore = rest.length > limit;
  const last = items.at(-1);
  return {
    items,
    total: ranked.length,
    hasMore,
    ...(hasMore && last ? { next: positionOf(last) } : {}),
  };
}
