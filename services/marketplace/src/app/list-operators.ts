import { ValidationError, decodeCursor, encodeCursor, parseLimit } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { OPERATOR_STATUSES, type OperatorStatusName } from "@petri/contracts/vocabulary";
import { activeJobCounts } from "../db/jobs.js";
import { listOperators } from "../db/operators.js";
import type { MarketplaceDb } from "../db/schema.js";
import type { OperatorView } from "./operator-view.js";

export interface OperatorListPage {
  operators: OperatorView[];
  /** Every operator matching the filter, regardless of the cursor: when counted or known (pageTotal). */
  total: number | undefined;
  /** "" when there is no further page. */
  nextCursor: string;
  hasMore: boolean;
}

function statusFilter(status: string): OperatorStatusName | undefined {
  if (status === "") return undefined;
  if ((OPERATOR_STATUSES as readonly string[]).includes(status)) return status as OperatorStatusName;
  throw new ValidationError("the status is unknown", [
    {
      field: "status",
      code: "invalid_value",
      message: `status must be one of ${OPERATOR_STATUSES.join(", ")}`,
    },
  ]);
}

/** Staff: operators newest first, optionally of one status, in keyset pages of 1..100 (default 20). */
export function makeListOperators(deps: { db: Kysely<MarketplaceDb> }) {
  return async function listOperatorsUseCase(input: {
    status: string;
    limit: number;
    cursor: string;
    includeTotal: boolean;
  }): Promise<OperatorListPage> {
    const status = statusFilter(input.status);
    const limit = parseLimit(input.limit);
    let after: { at: Date; id: string } | undefined;
    if (input.cursor !== "") {
      const [at, id] = decodeCursor(input.cursor, ["date", "string"]) as [Date, string];
      after = { at, id };
    }
    const page = await listOperators(deps.db, { status }, { limit, after, countTotal: input.includeTotal });
    const counts = await activeJobCounts(
      deps.db,
      page.records.map((record) => record.id),
    );
    const last = page.records.at(-1);
    return {
      operators: page.records.map((operator) => ({ operator, activeJobs: counts.get(operator.id) ?? 0 })),
      total: page.total,
      nextCursor: page.hasMore && last ? encodeCursor([last.createdAt, last.id]) : "",
      hasMore: page.hasMore,
    };
  };
}
