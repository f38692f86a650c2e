import {
  type Principal,
  ValidationError,
  decodeKeysetCursor,
  encodeKeysetCursor,
  parseLimit,
} from "@petri/service-kit";
import { DISPUTE_STATUSES } from "@petri/contracts/vocabulary";
import type { Kysely } from "kysely";
import { listDisputes } from "../db/disputes.js";
import type { DisputeRow, ExperimentsDb } from "../db/schema.js";
import { authorize } from "../domain/authorization.js";

export interface DisputeListPage {
  disputes: DisputeRow[];
  /** Every match, when counted or known without counting (pageTotal); undefined otherwise. */
  total: number | undefined;
  nextCursor: string;
  hasMore: boolean;
}

/** Staff: disputes oldest first (the work queue), all or by status ("open", "resolved"). */
export function makeListDisputes(deps: { db: Kysely<ExperimentsDb> }) {
  return async function listDisputesUseCase(
    principal: Principal,
    input: { status: string; limit: number; cursor: string; includeTotal: boolean },
  ): Promise<DisputeListPage> {
    authorize(principal, "staff");
    const limit = parseLimit(input.limit);
    const after = input.cursor === "" ? undefined : decodeKeysetCursor(input.cursor);
    const statusText = input.status.trim();
    const status = DISPUTE_STATUSES.find((s) => s === statusText);
    if (statusText !== "" && !status)
      throw new ValidationError("the status is unknown", [
        {
          field: "status",
          code: "invalid_value",
          message: `status must be one of ${DISPUTE_STATUSES.join(", ")}`,
        },
      ]);
    const page = await listDisputes(deps.db, { status }, { limit, after, countTotal: input.includeTotal });
    const last = page.rows.at(-1);
    return {
      disputes: page.rows,
      total: page.total,
      nextCursor: page.hasMore && last ? encodeKeysetCursor({ at: last.created_at, id: last.id }) : "",
      hasMore: page.hasMore,
    };
  };
}
