import { events } from "@petri/contracts";
import { recordEvent } from "@petri/events";
import { type Clock, NotFoundError, ValidationError, currentTraceparent } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { IdentityDb } from "../db/schema.js";
import { type AccountRole, type AccountTier, planAccessChange } from "../domain/account-access.js";
import { type AccountRecord, accountMessage, roleMessage, tierMessage } from "../rpc/account-message.js";
import { ACCOUNT_COLUMNS } from "./get-account.js";
import { raiseCredentialsEpoch } from "./raise-credentials-epoch.js";

export interface UpdateAccountAccessInput {
  accountId: string;
  /** Undefined leaves the value as it is. */
  role?: AccountRole | undefined;
  tier?: AccountTier | undefined;
}

/**
 * Within a transaction: applies the change to a locked account row, bumps its version and
 * records AccountAccessChanged. No change, no write and no event. A change also raises the
 * credentials epoch: tokens and cached API-key answers carry the role and tier they were
 * issued with, so none issued before may keep standing for the account (in either direction,
 * so a credential never claims rights the account no longer has in any form).
 */
export async function changeAccountAccess(
  trx: Kysely<IdentityDb>,
  input: UpdateAccountAccessInput,
  now: Date,
): Promise<{ account: AccountRecord; changed: boolean }> {
  const current = await trx
    .selectFrom("accounts")
    .select([...ACCOUNT_COLUMNS, "version"])
    .where("id", "=", input.accountId)
    .forUpdate()
    .executeTakeFirst();
  if (!current) throw new NotFoundError("account", input.accountId);
  const plan = planAccessChange(current, input);
  const { version: _version, ...unchanged } = current;
  if (!plan.changed) return { account: unchanged, changed: false };
  const { version, ...account } = await trx
    .updateTable("accounts")
    .set((eb) => ({ role: plan.role, tier: plan.tier, updated_at: now, version: eb("version", "+", 1) }))
    .where("id", "=", input.accountId)
    .returning([...ACCOUNT_COLUMNS, "version"])
    .executeTakeFirstOrThrow();
  await recordEvent(
    trx,
    events.identity.accountAccessChanged,
    {
      account: accountMessage(account),
      previousRole: roleMessage(current.role),
      previousTier: tierMessage(current.tier),
    },
    {
      aggregateId: account.id,
      aggregateVersion: version,
      occurredAt: now,
      traceparent: currentTraceparent(),
    },
  );
  await raiseCredentialsEpoch(trx, account.id, "access_changed", now);
  return { account, changed: true };
}

/** Staff change an account's role and/or tier. */
export function makeUpdateAccountAccess(deps: { db: Kysely<IdentityDb>; clock: Clock; afterCommit(): void }) {
  return async function updateAccountAccess(input: UpdateAccountAccessInput): Promise<AccountRecord> {
    if (input.accountId.trim() === "")
      throw new ValidationError("the account id is missing", [
        { field: "account_id", code: "missing_required", message: "account_id is required" },
      ]);
    const now = deps.clock.now();
    const result = await deps.db.transaction().execute((trx) => changeAccountAccess(trx, input, now));
    if (result.changed) deps.afterCommit();
    return result.account;
  };
}
