import { ForbiddenError, type Principal, decodeCursor, encodeCursor, parseLimit } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { activeJobCount, openJobCandidates } from "../db/jobs.js";
import { findOperatorByAccount } from "../db/operators.js";
import type { MarketplaceDb } from "../db/schema.js";
import {
  FEED_CANDIDATE_LIMIT,
  type FeedPosition,
  type RankedJob,
  feedPage,
  rankJobsFor,
} from "../domain/jobs/feed.js";
import { matchingOperatorOf } from "./operator-view.js";

export interface JobFeedPage {
  jobs: RankedJob[];
  /** Every job in the feed (of the bounded candidate scan), regardless of the cursor. */
  total: number;
  nextCursor: string;
  hasMore: boolean;
}

function positionOfCursor(cursor: string): FeedPosition | undefined {
  if (cursor === "") return undefined;
  const [score, postedAt, experimentId] = decodeCursor(cursor, ["number", "date", "string"]) as [
    number,
    Date,
    string,
  ];
  return { score, postedAt, experimentId };
}

/**
 * GET /operator/jobs: the open jobs the caller's lab may take (the shared hard filters),
 * best match first (domain/jobs/feed.ts), without the caller's own requests. Only an active
 * (verified) operator has a feed: anyone else is 403. Pages of 1..100 (default 20) with an
 * opaque cursor; the scan is bounded to the newest FEED_CANDIDATE_LIMIT open jobs.
 */
export function makeListJobs(deps: { db: Kysely<MarketplaceDb>; clock: { now(): Date } }) {
  return async function listJobs(
    principal: Principal,
    input: { limit: number; cursor: string },
  ): Promise<JobFeedPage> {
    const limit = parseLimit(input.limit);
    const after = positionOfCursor(input.cursor);
    const operator = await findOperatorByAccount(deps.db, principal.accountId);
    if (!operator || operator.status !== "active")
      throw new ForbiddenError("only active (verified) operators have a job feed", {
        operator_status: operator?.status ?? "none",
      });
    const activeJobs = await activeJobCount(deps.db, operator.id);
    const candidates = await openJobCandidates(deps.db, {
      excludeRequester: principal.accountId,
      limit: FEED_CANDIDATE_LIMIT,
    });
    const ranked = rankJobsFor(matchingOperatorOf({ operator, activeJobs }), candidates, deps.clock.now());
    const page = feedPage(ranked, limit, after);
    return {
      jobs: page.items,
      total: page.total,
      nextCursor: page.next
        ? encodeCursor([page.next.score, page.next.postedAt, page.next.experimentId])
        : "",
      hasMore: page.hasMore,
    };
  };
}
