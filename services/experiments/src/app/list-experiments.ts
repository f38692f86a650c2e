import {
  type Principal,
  ValidationError,
  decodeKeysetCursor,
  encodeKeysetCursor,
  parseLimit,
} from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { ExperimentStatusName } from "@petri/contracts/vocabulary";
import { type ExperimentFilter, listExperiments } from "../db/experiment-pages.js";
import type { ExperimentView } from "../db/experiment-records.js";
import type { ExperimentsDb } from "../db/schema.js";
import { isStaff } from "../domain/authorization.js";

export interface ListExperimentsInput {
  status?: ExperimentStatusName | undefined;
  /** Exclusive bounds on created_at. */
  createdAfter?: Date | undefined;
  createdBefore?: Date | undefined;
  /** 0 = default (20); 1..100. */
  limit: number;
  /** "" for the first page. */
  cursor: string;
  /** Count every match (see pageTotal). */
  includeTotal: boolean;
}

export interface ExperimentListPage {
  experiments: ExperimentView[];
  /** Every match, when counted or known without counting (pageTotal); undefined otherwise. */
  total: number | undefined;
  /** "" when there is no further page. */
  nextCursor: string;
  hasMore: boolean;
}

/**
 * Lists experiments newest first: a requester's own, or everyone's for staff, in one
 * statement. `total` counts every experiment matching the filters (not only the rest after
 * the cursor), when asked.
 */
export function makeListExperiments(deps: { db: Kysely<ExperimentsDb> }) {
  return async function listExperimentsUseCase(
    principal: Principal,
    input: ListExperimentsInput,
  ): Promise<ExperimentListPage> {
    const limit = parseLimit(input.limit);
    const after = input.cursor === "" ? undefined : decodeKeysetCursor(input.cursor);
    if (input.createdAfter && input.createdBefore && input.createdAfter >= input.createdBefore)
      throw new ValidationError("the time range is empty", [
        {
          field: "created_before",
          code: "invalid_value",
          message: "created_before must be after created_after",
        },
      ]);
    const filter: ExperimentFilter = {
      requesterAccountId: isStaff(principal) ? undefined : principal.accountId,
      status: input.status,
      createdAfter: input.createdAfter,
      createdBefore: input.createdBefore,
    };
    const page = await listExperiments(deps.db, filter, { limit, after, countTotal: input.includeTotal });
    const last = page.records.at(-1);
    return {
      experiments: page.records,
      total: page.total,
      nextCursor: page.hasMore && last ? encodeKeysetCursor({ at: last.created_at, id: last.id }) : "",
      hasMore: page.hasMore,
    };
  };
}
