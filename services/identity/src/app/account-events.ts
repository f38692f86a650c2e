/**
 * The account events the use cases record, in the transaction of the change they announce.
 * Each carries the account as it is after the change (never its credentials), in the
 * contract's shape.
 */
import { events } from "@petri/contracts";
import { recordEvent } from "@petri/events";
import { currentTraceparent } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { RoleName, TierName } from "@petri/contracts/vocabulary";
import type { AccountRecord } from "../db/accounts.js";
import type { IdentityDb } from "../db/schema.js";
import { accountMessage, roleMessage, tierMessage } from "../contract/account-message.js";

/** A new account (its first version): AccountRegistered. */
export async function recordAccountRegistered(
  trx: Kysely<IdentityDb>,
  account: AccountRecord,
  now: Date,
): Promise<void> {
  await recordEvent(
    trx,
    events.identity.accountRegistered,
    { account: accountMessage(account) },
    { aggregateId: account.id, aggregateVersion: 1, occurredAt: now, traceparent: currentTraceparent() },
  );
}

/** A role, tier or limits change that left the account at `version`: AccountAccessChanged. */
export async function recordAccountAccessChanged(
  trx: Kysely<IdentityDb>,
  account: AccountRecord,
  change: { version: number; previousRole: RoleName; previousTier: TierName },
  now: Date,
): Promise<void> {
  await recordEvent(
    trx,
    events.identity.accountAccessChanged,
    {
      account: accountMessage(account),
      previousRole: roleMessage(change.previousRole),
      previousTier: tierMessage(change.previousTier),
    },
    {
      aggregateId: account.id,
      aggregateVersion: change.version,
      occurredAt: now,
      traceparent: currentTraceparent(),
    },
  );
}
