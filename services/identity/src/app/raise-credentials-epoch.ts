import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { events } from "@petri/contracts";
import { CredentialsEpochSchema } from "@petri/contracts/identity";
import { recordEvent } from "@petri/events";
import { currentTraceparent } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { IdentityDb } from "../db/schema.js";

export type CredentialsRevocationReason = "access_changed" | "password_changed";

/**
 * Within the caller's transaction: raises the account's credentials epoch and records
 * CredentialsRevoked, so every gateway refuses the access tokens issued before and looks the
 * account's API keys up again. Every change that must end the rights a credential carries
 * goes through here (role or tier change, operator role taken back, password change).
 */
export async function raiseCredentialsEpoch(
  trx: Kysely<IdentityDb>,
  accountId: string,
  reason: CredentialsRevocationReason,
  now: Date,
): Promise<number> {
  const raised = await trx
    .updateTable("accounts")
    .set((eb) => ({
      credentials_epoch: eb("credentials_epoch", "+", 1),
      credentials_changed_at: now,
      updated_at: now,
      version: eb("version", "+", 1),
    }))
    .where("id", "=", accountId)
    .returning(["credentials_epoch", "version"])
    .executeTakeFirstOrThrow();
  await recordEvent(
    trx,
    events.identity.credentialsRevoked,
    {
      epoch: create(CredentialsEpochSchema, {
        accountId,
        epoch: BigInt(raised.credentials_epoch),
        changedAt: timestampFromDate(now),
      }),
      reason,
    },
    {
      aggregateId: accountId,
      aggregateVersion: raised.version,
      occurredAt: now,
      traceparent: currentTraceparent(),
    },
  );
  return raised.credentials_epoch;
}
