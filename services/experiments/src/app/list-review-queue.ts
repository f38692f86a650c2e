import { type Principal, decodeKeysetCursor, encodeKeysetCursor, parseLimit } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { listReviewQueue } from "../db/experiment-pages.js";
import type { ExperimentsDb } from "../db/schema.js";
import { authorize } from "../domain/authorization.js";
import type { ExperimentListPage } from "./list-experiments.js";

/** Staff: experiments in pending_review, oldest submission first. */
export function makeListReviewQueue(deps: { db: Kysely<ExperimentsDb> }) {
  return async function listReviewQueueUseCase(
    principal: Principal,
    input: { limit: number; cursor: string; includeTotal: boolean },
  ): Promise<ExperimentListPage> {
    authorize(principal, "staff");
    const limit = parseLimit(input.limit);
    const after = input.cursor === "" ? undefined : decodeKeysetCursor(input.cursor);
    const page = await listReviewQueue(deps.db, { limit, after, countTotal: input.includeTotal });
    const last = page.records.at(-1);
    return {
      experiments: page.records,
      total: page.total,
      nextCursor:
        page.hasMore && last?.submitted_at ? encodeKeysetCursor({ at: last.submitted_at, id: last.id }) : "",
      hasMore: page.hasMore,
    };
  };
}
