/**
 * API keys: create / list / authenticate / revoke, the per-account cap, isolation between
 * accounts and last-use bookkeeping. Same scenarios on PostgreSQL and PGlite.
 */
import { Code } from "@connectrpc/connect";
import { Role, Tier } from "@petri/contracts/identity";
import { errorDetailOf } from "@petri/service-kit";
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

describe.each(ENGINES)("API keys on %s", (engine) => {
  let identity: Identity;
  identityOfBlock(engine, (started) => (identity = started));

  async function newAccount(label: string) {
    const response = await identity.as().registerAccount(registration(label));
    return { account: response.account!, firstKey: response.apiKeySecret, firstKeyId: response.apiKey!.id };
  }

  it("create -> list -> authenticate -> revoke -> authenticate fails", async () => {
    const { account, firstKey } = await newAccount("keys");
    const me = identity.as(principalOf(account));

    await jump(identity, 1_000);
    const created = await me.createApiKey({ name: " ci " });
    expect(created.secret).toMatch(/^petri_sk_[0-9A-Za-z]{38}$/);
    expect(created.apiKey).toMatchObject({ name: "ci", displayPrefix: created.secret.slice(0, 12) });
    expect(created.apiKey!.revokedAt).toBeUndefined();

    const listed = await me.listApiKeys({});
    expect(listed.total).toBe(2n);
    expect(listed.apiKeys.map((k) => k.name)).toEqual(["ci", "default"]);
    const text = JSON.stringify(listed.apiKeys, (_key, value: unknown) =>
      typeof value === "bigint" ? value.toString() : value,
    );
    expect(text).not.toContain(created.secret.slice(12));
    expect(text).not.toContain(firstKey.slice(12));

    const authenticated = await identity.as(SYSTEM).authenticateApiKey({ secret: created.secret });
    expect(authenticated.principal).toMatchObject({
      accountId: account.id,
      role: Role.REQUESTER,
      tier: Tier.STANDARD,
      operatorId: "",
    });
    expect(authenticated.apiKeyId).toBe(created.apiKey!.id);

    const revoked = await me.revokeApiKey({ apiKeyId: created.apiKey!.id });
    expect(revoked.apiKey!.revokedAt).toBeDefined();
    const again = await me.revokeApiKey({ apiKeyId: created.apiKey!.id });
    expect(again.apiKey!.revokedAt).toEqual(revoked.apiKey!.revokedAt);

    const refused = await rejection(identity.as(SYSTEM).authenticateApiKey({ secret: created.secret }));
    expect(refused.code).toBe(Code.Unauthenticated);
    expect(refused.rawMessage).toBe("invalid API key");
    // The account's other key still works.
    await expect(identity.as(SYSTEM).authenticateApiKey({ secret: firstKey })).resolves.toBeDefined();

    expect((await me.listApiKeys({})).apiKeys.map((k) => k.name)).toEqual(["default"]);
    const withRevoked = await me.listApiKeys({ includeRevoked: true });
    expect(withRevoked.total).toBe(2n);
    expect(withRevoked.apiKeys[0]!.revokedAt).toBeDefined();
  });

  it("answers unknown, malformed and revoked keys alike", async () => {
    const { firstKey } = await newAccount("alike");
    const last = firstKey.at(-1) === "0" ? "1" : "0";
    const candidates = [`${firstKey.slice(0, -1)}${last}`, "petri_sk_nope", "Bearer x", ""];
    for (const secret of candidates) {
      const error = await rejection(identity.as(SYSTEM).authenticateApiKey({ secret }));
      expect(error.code).toBe(Code.Unauthenticated);
      expect(error.rawMessage).toBe("invalid API key");
    }
  });

  it("keeps accounts apart: another account's key is not found, and lists are per account", async () => {
    const alice = await newAccount("alice");
    const bob = await newAccount("bob");
    const bobAsAlice = await rejection(
      identity.as(principalOf(alice.account)).revokeApiKey({ apiKeyId: bob.firstKeyId }),
    );
    expect(bobAsAlice.code).toBe(Code.NotFound);
    expect(
      (await rejection(identity.as(principalOf(alice.account)).revokeApiKey({ apiKeyId: "key_nope" }))).code,
    ).toBe(Code.NotFound);
    await expect(identity.as(SYSTEM).authenticateApiKey({ secret: bob.firstKey })).resolves.toBeDefined();
    const aliceKeys = await identity.as(principalOf(alice.account)).listApiKeys({});
    expect(aliceKeys.apiKeys.map((k) => k.id)).toEqual([alice.firstKeyId]);
  });

  it("acts only for accounts (not the gateway) and authenticates only for the gateway", async () => {
    const { account, firstKey } = await newAccount("roles");
    expect((await rejection(identity.as(SYSTEM).createApiKey({ name: "x" }))).code).toBe(
      Code.PermissionDenied,
    );
    expect((await rejection(identity.as().listApiKeys({}))).code).toBe(Code.Unauthenticated);
    for (const role of ["requester", "operator", "staff"] as const) {
      const error = await rejection(
        identity.as(principalOf(account, role)).authenticateApiKey({ secret: firstKey }),
      );
      expect(error.code).toBe(Code.PermissionDenied);
    }
  });

  it("validates names and pages", async () => {
    const { account } = await newAccount("validate");
    const me = identity.as(principalOf(account));
    expect((await rejection(me.createApiKey({ name: "" }))).code).toBe(Code.InvalidArgument);
    expect((await rejection(me.listApiKeys({ limit: 101 }))).code).toBe(Code.InvalidArgument);
    expect((await rejection(me.listApiKeys({ limit: -1 }))).code).toBe(Code.InvalidArgument);
    expect((await rejection(me.listApiKeys({ offset: -1 }))).code).toBe(Code.InvalidArgument);
    for (let i = 0; i < 4; i += 1) {
      await jump(identity, 1_000);
      await me.createApiKey({ name: `k${i}` });
    }
    const page = await me.listApiKeys({ limit: 2, offset: 1 });
    expect(page.total).toBe(5n);
    expect(page.apiKeys.map((k) => k.name)).toEqual(["k2", "k1"]);
    expect((await me.listApiKeys({ limit: 0 })).apiKeys).toHaveLength(5);
  });

  it("caps active keys at 25 per account, exactly, even under concurrent creates", async () => {
    const { account } = await newAccount("cap");
    const me = identity.as(principalOf(account));
    // The registration made 1; ask for 30 more at once: exactly 24 fit.
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) => me.createApiKey({ name: `k${i}` })),
    );
    const fulfilled = results.filter((r) => r.status === "fulfilled");
    expect(fulfilled).toHaveLength(24);
    for (const result of results) {
      if (result.status === "rejected") {
        const error = await rejection(Promise.reject(result.reason));
        expect(error.code).toBe(Code.AlreadyExists);
        expect(errorDetailOf(error)?.reason).toBe("api_key_limit_reached");
      }
    }
    expect((await me.listApiKeys({ limit: 100 })).total).toBe(25n);
    // Revoking one makes room for one.
    const first = (fulfilled[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof me.createApiKey>>>).value;
    await me.revokeApiKey({ apiKeyId: first.apiKey!.id });
    await expect(me.createApiKey({ name: "replacement" })).resolves.toBeDefined();
    expect((await rejection(me.createApiKey({ name: "one too many" }))).code).toBe(Code.AlreadyExists);
  });

  it("records last use at most once a minute", async () => {
    const { account, firstKey, firstKeyId } = await newAccount("usage");
    const lastUsed = async () =>
      (
        await identity.db
          .selectFrom("api_keys")
          .select("last_used_at")
          .where("id", "=", firstKeyId)
          .executeTakeFirstOrThrow()
      ).last_used_at;
    expect(await lastUsed()).toBeNull();
    const t0 = identity.clock.now();
    await identity.as(SYSTEM).authenticateApiKey({ secret: firstKey });
    expect(await lastUsed()).toEqual(t0);
    await jump(identity, 30_000);
    await identity.as(SYSTEM).authenticateApiKey({ secret: firstKey });
    expect(await lastUsed()).toEqual(t0);
    await jump(identity, 30_000);
    await identity.as(SYSTEM).authenticateApiKey({ secret: firstKey });
    expect(await lastUsed()).toEqual(identity.clock.now());
    const listed = await identity.as(principalOf(account)).listApiKeys({});
    expect(listed.apiKeys[0]!.lastUsedAt).toBeDefined();
  });

  it("gives the account's current role and tier, not the key's creation-time ones", async () => {
    const { account, firstKey } = await newAccount("tiered");
    await identity.db
      .updateTable("accounts")
      .set({ tier: "ai_agent" })
      .where("id", "=", account.id)
      .execute();
    const { principal } = await identity.as(SYSTEM).authenticateApiKey({ secret: firstKey });
    expect(principal!.tier).toBe(Tier.AI_AGENT);
  });
});
