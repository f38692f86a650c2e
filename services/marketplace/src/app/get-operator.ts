import { NotFoundError } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { findOperator } from "../db/operators.js";
import type { MarketplaceDb } from "../db/schema.js";
import { type OperatorView, viewOf } from "./operator-view.js";

/** Staff: one operator by id; 404 when there is none. */
export function makeGetOperator(deps: { db: Kysely<MarketplaceDb> }) {
  return async function getOperator(operatorId: string): Promise<OperatorView> {
    const operator = await findOperator(deps.db, operatorId);
    if (!operator) throw new NotFoundError("operator", operatorId);
    return viewOf(deps.db, operator);
  };
}
