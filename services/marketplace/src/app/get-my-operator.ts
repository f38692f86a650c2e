import { NotFoundError, type Principal } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { findOperatorByAccount } from "../db/operators.js";
import type { MarketplaceDb } from "../db/schema.js";
import { type OperatorView, viewOf } from "./operator-view.js";

/** The caller's own operator record; 404 when the account has none. */
export function makeGetMyOperator(deps: { db: Kysely<MarketplaceDb> }) {
  return async function getMyOperator(principal: Principal): Promise<OperatorView> {
    const operator = await findOperatorByAccount(deps.db, principal.accountId);
    if (!operator) throw new NotFoundError("operator of account", principal.accountId);
    return viewOf(deps.db, operator);
  };
}
