import { NotFoundError, type Principal } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { IdentityDb } from "../db/schema.js";
import type { AccountRecord } from "../db/accounts.js";

export const ACCOUNT_COLUMNS = [
  "id",
  "email",
  "name",
  "organization",
  "role",
  "tier",
  "rate_limit_per_minute",
  "rate_limit_per_day",
  "created_at",
  "updated_at",
] as const;

/**
 * The caller's own account; staff may name any account. A non-staff caller naming another
 * account gets "not found", as for any other tenant's object.
 */
export function makeGetAccount(deps: { db: Kysely<IdentityDb> }) {
  return async function getAccount(caller: Principal, accountId: string): Promise<AccountRecord> {
    const wanted = accountId === "" ? caller.accountId : accountId;
    if (wanted !== caller.accountId && caller.role !== "staff") throw new NotFoundError("account", wanted);
    const account = await deps.db
      .selectFrom("accounts")
      .select(ACCOUNT_COLUMNS)
      .where("id", "=", wanted)
      .executeTakeFirst();
    if (!account) throw new NotFoundError("account", wanted);
    return account;
  };
}
