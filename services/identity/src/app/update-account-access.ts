import type { UnitOfWork } from "@petri/events";
import { type Clock, NotFoundError, ValidationError } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { RoleName, TierName } from "@petri/contracts/vocabulary";
import type { AccountRecord } from "../db/accounts.js";
import type { IdentityDb } from "../db/schema.js";
import { type CustomRateLimits, planAccessChange, validateAccessChange } from "../domain/account-access.js";
import { recordAccountAccessChanged } from "./account-events.js";
import { ACCOUNT_COLUMNS } from "./get-account.js";
import { raiseCredentialsEpoch } from "./raise-credentials-epoch.js";

export interface UpdateAccountAccessInput {
  accountId: string;
  /** Undefined leaves the value as it is. */
  role?: RoleName | undefined;
  tier?: TierName | undefined;
  /** With tier "custom" only (and then required). */
  rateLimits?: CustomRateLimits | undefined;
}

/**
 * Within a transaction: applies the change to a locked account row, bumps its version and
 * records AccountAccessChanged. No change, no write and no event. A role or tier change also
 * raises the credentials epoch: tokens and cached API-key answers carry the role and tier they
 * were issued with, so none issued before may keep standing for the account (in either
 * direction, so a credential never claims rights the account no longer has in any form). New
 * limits within the custom tier do not: every quota draw reads them afresh.
 */
export async function changeAccountAccess(
  trx: Kysely<IdentityDb>,
  input: UpdateAccountAccessInput,
  now: Date,
): Promise<{ account: AccountRecord; changed: boolean }> {
  const problems = validateAccessChange(input);
  if (problems.length > 0) throw new ValidationError("the access change is invalid", problems);
  const current = await trx
    .selectFrom("accounts")
    .select([...ACCOUNT_COLUMNS, "version"])
    .where("id", "=", input.accountId)
    .forUpdate()
    .executeTakeFirst();
  if (!current) throw new NotFoundError("account", input.accountId);
  const plan = planAccessChange(
    {
      role: current.role,
      tier: current.tier,
      rateLimits:
        current.rate_limit_per_minute !== null && current.rate_limit_per_day !== null
          ? { perMinute: current.rate_limit_per_minute, perDay: current.rate_limit_per_day }
          : null,
    },
    input,
  );
  const { version: _version, ...unchanged } = current;
  if (!plan.changed) return { account: unchanged, changed: false };
  const { version, ...account } = await trx
    .updateTable("accounts")
    .set((eb) => ({
      role: plan.role,
      tier: plan.tier,
      rate_limit_per_minute: plan.rateLimits?.perMinute ?? null,
      rate_limit_per_day: plan.rateLimits?.perDay ?? null,
      updated_at: now,
      version: eb("version", "+", 1),
    }))
    .where("id", "=", input.accountId)
    .returning([...ACCOUNT_COLUMNS, "version"])
    .executeTakeFirstOrThrow();
  await recordAccountAccessChanged(
    trx,
    account,
    { version, previousRole: current.role, previousTier: current.tier },
    now,
  );
  if (plan.credentialsChanged) await raiseCredentialsEpoch(trx, account.id, "access_changed", now);
  return { account, changed: true };
}

/** Staff change an account's role and/or tier (and a custom tier's limits). */
export function makeUpdateAccountAccess(deps: { clock: Clock; unitOfWork: UnitOfWork<IdentityDb> }) {
  return async function updateAccountAccess(input: UpdateAccountAccessInput): Promise<AccountRecord> {
    if (input.accountId.trim() === "")
      throw new ValidationError("the account id is missing", [
        { field: "account_id", code: "missing_required", message: "account_id is required" },
      ]);
    const now = deps.clock.now();
    const result = await deps.unitOfWork.run((trx) => changeAccountAccess(trx, input, now));
    return result.account;
  };
}
