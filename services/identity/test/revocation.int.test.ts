/**
 * Rights a credential carries end with the change that takes them away: a role or tier
 * change, an operator role taken back on OperatorEligibilityChanged and a password change
 * raise the account's credentials epoch and record CredentialsRevoked in the outbox; a
 * revoked access token is kept until it expires and announced with AccessTokenRevoked.
 * ListRevocations is what a gateway loads at start. PostgreSQL and PGlite.
 */
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import { events } from "@petri/contracts";
import {
  type AccessTokenRevoked,
  type ApiKeyRevoked,
  type CredentialsRevoked,
  Role,
} from "@petri/contracts/identity";
import { buildEnvelope, decodeEnvelope, decodePayload } from "@petri/events";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import {
  ENGINES,
  type Identity,
  SYSTEM,
  identityOfBlock,
  jump,
  principalOf,
  registration,
  rejection,
} from "./support/harness.js";

describe.each(ENGINES)("credential revocation on %s", (engine) => {
  let identity: Identity;
  identityOfBlock(engine, (started) => (identity = started), { perTest: true });

  async function epochOf(accountId: string): Promise<number> {
    const row = await identity.db
      .selectFrom("accounts")
      .select("credentials_epoch")
      .where("id", "=", accountId)
      .executeTakeFirstOrThrow();
    return row.credentials_epoch;
  }

  async function outbox<T>(type: string): Promise<T[]> {
    const rows = await identity.db
      .selectFrom("outbox")
      .select("envelope")
      .where("type", "=", type)
      .orderBy("seq")
      .execute();
    return rows.map((row) => decodePayload(decodeEnvelope(row.envelope)) as T);
  }

  const revoked = (accountId: string) =>
    outbox<CredentialsRevoked>("petri.identity.v1.CredentialsRevoked").then((all) =>
      all.filter((e) => e.epoch?.accountId === accountId),
    );

  async function register() {
    const reg = registration("revoked");
    const { account, apiKeySecret } = await identity.as().registerAccount(reg);
    return { ...reg, id: account!.id, apiKeySecret };
  }

  it("a role change raises the epoch, records CredentialsRevoked and new credentials carry it", async () => {
    const user = await register();
    const staff = principalOf({ id: "usr_staff" }, "staff");
    const before = await identity.as().issueToken({ email: user.email, password: user.password });
    expect(decodeJwt(before.accessToken).cep).toBe(0);

    await identity.as(staff).updateAccountAccess({ accountId: user.id, role: Role.STAFF });
    expect(await epochOf(user.id)).toBe(1);
    await identity.as(staff).updateAccountAccess({ accountId: user.id, role: Role.REQUESTER });
    expect(await epochOf(user.id)).toBe(2);
    // No change, no raise.
    await identity.as(staff).updateAccountAccess({ accountId: user.id, role: Role.REQUESTER });
    expect(await epochOf(user.id)).toBe(2);

    const recorded = await revoked(user.id);
    expect(recorded.map((e) => [Number(e.epoch!.epoch), e.reason])).toEqual([
      [1, "access_changed"],
      [2, "access_changed"],
    ]);
    const after = await identity.as().issueToken({ email: user.email, password: user.password });
    expect(decodeJwt(after.accessToken).cep).toBe(2);
    const key = await identity.as(SYSTEM).authenticateApiKey({ secret: user.apiKeySecret });
    expect(key.credentialsEpoch).toBe(2n);

    const snapshot = await identity.as(SYSTEM).listRevocations({});
    expect(snapshot.epochs.find((e) => e.accountId === user.id)?.epoch).toBe(2n);
    expect(snapshot.accessTokenTtlSeconds).toBe(3600n);
    // Once every token issued before the raise has expired, the raise no longer matters.
    await jump(identity, 3_601_000);
    const later = await identity.as(SYSTEM).listRevocations({});
    expect(later.epochs.find((e) => e.accountId === user.id)).toBeUndefined();
  });

  it("the operator role taken back on OperatorEligibilityChanged raises the epoch", async () => {
    const user = await register();
    const publish = (status: string, version: number) =>
      identity.bus.publish(
        buildEnvelope(
          events.marketplace.operatorEligibilityChanged,
          {
            eligibility: { operatorId: "op_rev", accountId: user.id, status, version: BigInt(version) },
            previousStatus: "",
          },
          { aggregateId: "op_rev", aggregateVersion: version, occurredAt: identity.clock.now() },
        ),
      );
    const epochReaches = async (epoch: number) => {
      for (let attempt = 0; attempt < 400 && (await epochOf(user.id)) < epoch; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(await epochOf(user.id)).toBe(epoch);
    };
    // One at a time: the consumer handles deliveries concurrently, and a suspension applied
    // before the activation it follows leaves the role (and the epoch) as they were.
    await publish("active", 1);
    await epochReaches(1);
    await publish("suspended", 2);
    await epochReaches(2);
    expect((await revoked(user.id)).map((e) => e.reason)).toEqual(["access_changed", "access_changed"]);
  });

  it("a password change needs the current password, raises the epoch and replaces the password", async () => {
    const user = await register();
    const self = identity.as(principalOf(user));
    const wrong = await rejection(
      self.changePassword({ currentPassword: "not the password", newPassword: "a new password 42" }),
    );
    expect(wrong.code).toBe(Code.Unauthenticated);
    const short = await rejection(
      self.changePassword({ currentPassword: user.password, newPassword: "short" }),
    );
    expect(short.code).toBe(Code.InvalidArgument);
    expect(await epochOf(user.id)).toBe(0);

    await self.changePassword({ currentPassword: user.password, newPassword: "a new password 42" });
    expect(await epochOf(user.id)).toBe(1);
    expect((await revoked(user.id)).map((e) => e.reason)).toEqual(["password_changed"]);
    const old = await rejection(identity.as().issueToken({ email: user.email, password: user.password }));
    expect(old.code).toBe(Code.Unauthenticated);
    const fresh = await identity.as().issueToken({ email: user.email, password: "a new password 42" });
    expect(decodeJwt(fresh.accessToken).cep).toBe(1);
  });

  it("a revoked token is kept until it expires, announced once, and purged after", async () => {
    const user = await register();
    const expiresAt = new Date(identity.clock.now().getTime() + 600_000);
    const token = { accountId: user.id, jti: "jti-rev-1", expiresAt: timestampFromDate(expiresAt) };
    await identity.as(SYSTEM).revokeAccessToken({ token });
    await identity.as(SYSTEM).revokeAccessToken({ token });
    // Already expired: nothing to keep.
    await identity.as(SYSTEM).revokeAccessToken({
      token: { ...token, jti: "jti-expired", expiresAt: timestampFromDate(identity.clock.now()) },
    });
    const announced = await outbox<AccessTokenRevoked>("petri.identity.v1.AccessTokenRevoked");
    expect(announced.map((e) => e.token?.jti)).toEqual(["jti-rev-1"]);
    const snapshot = await identity.as(SYSTEM).listRevocations({});
    expect(snapshot.tokens.map((t) => t.jti)).toEqual(["jti-rev-1"]);
    // Only the gateway may revoke on a caller's behalf.
    const denied = await rejection(identity.as(principalOf(user)).revokeAccessToken({ token }));
    expect(denied.code).toBe(Code.PermissionDenied);

    await jump(identity, 600_000);
    expect((await identity.as(SYSTEM).listRevocations({})).tokens).toEqual([]);
    // (Housekeeping may have run during the jump already.)
    await identity.service.purgeExpiredRecords();
    expect(await identity.db.selectFrom("revoked_access_tokens").select("jti").execute()).toEqual([]);
  });

  it("streams each revocation (epoch, token, API key) to a watching gateway after an empty first message", async () => {
    const user = await register();
    const abort = new AbortController();
    const watch = identity.as(SYSTEM).watchRevocations({}, { signal: abort.signal })[Symbol.asyncIterator]();
    const first = await watch.next();
    expect(first.value?.revocation.case).toBeUndefined();

    await identity.as(principalOf({ id: "usr_staff" }, "staff")).updateAccountAccess({
      accountId: user.id,
      role: Role.STAFF,
    });
    const raised = await watch.next();
    expect(raised.value?.revocation).toMatchObject({
      case: "epoch",
      value: { accountId: user.id, epoch: 1n },
    });

    const expiresAt = timestampFromDate(new Date(identity.clock.now().getTime() + 60_000));
    await identity
      .as(SYSTEM)
      .revokeAccessToken({ token: { accountId: user.id, jti: "jti-watch", expiresAt } });
    const revokedToken = await watch.next();
    expect(revokedToken.value?.revocation).toMatchObject({ case: "token", value: { jti: "jti-watch" } });
    const { apiKeys } = await identity.as(principalOf(user)).listApiKeys({ limit: 10 });
    await identity.as(principalOf(user)).revokeApiKey({ apiKeyId: apiKeys[0]!.id });
    await identity.as(principalOf(user)).revokeApiKey({ apiKeyId: apiKeys[0]!.id }); // idempotent
    const revokedKey = await watch.next();
    expect(revokedKey.value?.revocation).toMatchObject({ case: "apiKeyId", value: apiKeys[0]!.id });
    const recorded = await outbox<ApiKeyRevoked>("petri.identity.v1.ApiKeyRevoked");
    expect(recorded.map((e) => e.apiKeyId)).toEqual([apiKeys[0]!.id]);
    abort.abort();

    const denied = await rejection(
      (async () => {
        for await (const message of identity.as(principalOf(user)).watchRevocations({})) return message;
      })(),
    );
    expect(denied.code).toBe(Code.PermissionDenied);
  });
});
