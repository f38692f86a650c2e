import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { events } from "@petri/contracts";
import { RevokedAccessTokenSchema } from "@petri/contracts/identity";
import { recordEvent, type UnitOfWork } from "@petri/events";
import { type Clock, ValidationError, currentTraceparent } from "@petri/service-kit";
import type { IdentityDb } from "../db/schema.js";

export interface RevokeAccessTokenInput {
  accountId: string;
  jti: string;
  expiresAt: Date;
}

/**
 * Ends one access token the gateway has verified (RFC 7009): kept until it expires and
 * announced with AccessTokenRevoked. Idempotent; an expired token needs nothing.
 */
export function makeRevokeAccessToken(deps: { clock: Clock; unitOfWork: UnitOfWork<IdentityDb> }) {
  return async function revokeAccessToken(input: RevokeAccessTokenInput): Promise<void> {
    if (input.jti === "" || input.accountId === "")
      throw new ValidationError("the token to revoke is incomplete", [
        { field: "token", code: "missing_required", message: "account_id and jti are required" },
      ]);
    const now = deps.clock.now();
    if (input.expiresAt.getTime() <= now.getTime()) return;
    await deps.unitOfWork.run(async (trx) => {
      const inserted = await trx
        .insertInto("revoked_access_tokens")
        .values({ jti: input.jti, account_id: input.accountId, expires_at: input.expiresAt, revoked_at: now })
        .onConflict((oc) => oc.column("jti").doNothing())
        .returning("jti")
        .executeTakeFirst();
      if (!inserted) return;
      await recordEvent(
        trx,
        events.identity.accessTokenRevoked,
        {
          token: create(RevokedAccessTokenSchema, {
            accountId: input.accountId,
            jti: input.jti,
            expiresAt: timestampFromDate(input.expiresAt),
          }),
        },
        { aggregateId: input.jti, aggregateVersion: 1, occurredAt: now, traceparent: currentTraceparent() },
      );
    });
  };
}
