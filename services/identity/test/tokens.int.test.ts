/**
 * Accounts, passwords and access tokens: register -> token -> verify with the published
 * JWKS -> rotate -> old tokens verify until the old key retires. Same scenarios on
 * PostgreSQL and PGlite.
 */
import { Code } from "@connectrpc/connect";
import { Role, Tier } from "@petri/contracts/identity";
import { errorDetailOf } from "@petri/service-kit";
import argon2 from "argon2";
import { type JWTVerifyOptions, createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { argon2ParametersOf } from "../src/security/passwords.js";
import {
  CountingHasher,
  ENGINES,
  type Identity,
  SYSTEM,
  identityOfBlock,
  jump,
  principalOf,
  registration,
  rejection,
} from "./support/harness.js";

describe.each(ENGINES)("access tokens on %s", (engine) => {
  let identity: Identity;
  const hasher = new CountingHasher();
  const staff = { email: "staff@petri.example", password: "staff password 123" };
  const staffPrincipal = async () => {
    const row = await identity.db
      .selectFrom("accounts")
      .select("id")
      .where("email", "=", staff.email)
      .executeTakeFirstOrThrow();
    return principalOf(row, "staff");
  };

  identityOfBlock(engine, (started) => (identity = started), { options: { passwordHasher: hasher, staff } });

  async function jwks() {
    const set = await identity.as(SYSTEM).listSigningKeys({});
    return {
      set,
      keySet: createLocalJWKSet({ keys: set.keys.map((k) => JSON.parse(k.publicJwkJson)) }),
      options: {
        algorithms: ["EdDSA"],
        issuer: set.issuer,
        audience: set.audience,
        typ: "at+jwt",
        requiredClaims: ["exp", "iat", "sub", "jti"],
        currentDate: identity.clock.now(),
      } satisfies JWTVerifyOptions,
    };
  }

  it("registers an account with its first API key, shown once", async () => {
    const input = registration("ada");
    const response = await identity.as().registerAccount(input);
    expect(response.account).toMatchObject({ email: input.email, role: Role.REQUESTER, tier: Tier.STANDARD });
    expect(response.account!.id).toMatch(/^usr_/);
    expect(response.apiKeySecret).toMatch(/^petri_sk_[0-9A-Za-z]{38}$/);
    expect(response.apiKey).toMatchObject({
      name: "default",
      displayPrefix: response.apiKeySecret.slice(0, 12),
    });
    expect(response.apiKey!.id).toMatch(/^key_/);
    const outbox = await identity.db.selectFrom("outbox").select(["type", "aggregate_id"]).execute();
    expect(outbox).toContainEqual({
      type: "petri.identity.v1.AccountRegistered",
      aggregate_id: response.account!.id,
    });

    const duplicate = await rejection(
      identity.as().registerAccount({ ...input, email: input.email.toUpperCase() }),
    );
    expect(duplicate.code).toBe(Code.AlreadyExists);
    expect(errorDetailOf(duplicate)?.reason).toBe("email_taken");
    // The failed registration left no second key behind.
    const keys = await identity.db
      .selectFrom("api_keys")
      .select("id")
      .where("account_id", "=", response.account!.id)
      .execute();
    expect(keys).toHaveLength(1);
  });

  it("issues an EdDSA access token that verifies with ListSigningKeys, with the documented claims", async () => {
    const input = registration("grace");
    const { account } = await identity.as().registerAccount(input);
    const issued = await identity
      .as()
      .issueToken({ email: ` ${input.email.toUpperCase()} `, password: input.password });
    expect(issued.expiresIn).toBe(3600n);
    const { set, keySet, options } = await jwks();
    expect(set.issuer).toBe("petri-identity");
    expect(set.audience).toBe("petri-api");
    const header = decodeProtectedHeader(issued.accessToken);
    expect(header).toEqual({ alg: "EdDSA", typ: "at+jwt", kid: set.keys[0]!.kid });
    const { payload } = await jwtVerify(issued.accessToken, keySet, options);
    expect(payload).toMatchObject({
      iss: "petri-identity",
      aud: "petri-api",
      sub: account!.id,
      role: "requester",
      tier: "standard",
      iat: Math.floor(identity.clock.now().getTime() / 1000),
    });
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(Number(issued.expiresAt!.seconds)).toBe(payload.exp);
    expect(typeof payload.jti).toBe("string");
  });

  it("answers a wrong password and an unknown e-mail alike, each after one argon2 verification", async () => {
    const input = registration("eve");
    await identity.as().registerAccount(input);
    const before = hasher.verifications;
    const wrongPassword = await rejection(
      identity.as().issueToken({ email: input.email, password: "not the password" }),
    );
    expect(hasher.verifications - before).toBe(1);
    const unknownEmail = await rejection(
      identity.as().issueToken({ email: `nobody-${input.email}`, password: input.password }),
    );
    expect(hasher.verifications - before).toBe(2);
    for (const error of [wrongPassword, unknownEmail]) {
      expect(error.code).toBe(Code.Unauthenticated);
      expect(error.rawMessage).toBe("invalid e-mail or password");
    }
    expect(errorDetailOf(wrongPassword)).toEqual(errorDetailOf(unknownEmail));
  });

  it("rejects an oversized password before any hashing", async () => {
    const before = { hashes: hasher.hashes, verifications: hasher.verifications };
    const huge = "x".repeat(1024 * 1024);
    const login = await rejection(identity.as().issueToken({ email: "a@example.org", password: huge }));
    expect(login.code).toBe(Code.InvalidArgument);
    const register = await rejection(identity.as().registerAccount({ ...registration(), password: huge }));
    expect(register.code).toBe(Code.InvalidArgument);
    expect({ hashes: hasher.hashes, verifications: hasher.verifications }).toEqual(before);
  });

  it("upgrades a hash made with weaker parameters at login (K2)", async () => {
    const input = registration("legacy");
    const { account } = await identity.as().registerAccount(input);
    const weak = await argon2.hash(input.password, {
      type: argon2.argon2id,
      memoryCost: 4096,
      timeCost: 1,
      parallelism: 1,
    });
    await identity.db
      .updateTable("accounts")
      .set({ password_hash: weak })
      .where("id", "=", account!.id)
      .execute();

    await identity.as().issueToken({ email: input.email, password: input.password });
    const { password_hash } = await identity.db
      .selectFrom("accounts")
      .select("password_hash")
      .where("id", "=", account!.id)
      .executeTakeFirstOrThrow();
    expect(password_hash).not.toBe(weak);
    expect(argon2ParametersOf(password_hash)).toMatchObject({
      variant: "argon2id",
      memoryCost: 19_456,
      timeCost: 2,
    });
    await expect(
      identity.as().issueToken({ email: input.email, password: input.password }),
    ).resolves.toBeDefined();
  });

  it("rotates: old tokens verify until the old key retires, new tokens carry the new kid", async () => {
    const input = registration("rotation");
    await identity.as().registerAccount(input);
    const oldToken = (await identity.as().issueToken(input)).accessToken;
    const oldKid = decodeProtectedHeader(oldToken).kid;

    // Only staff rotate; only the gateway (system) lists keys.
    const requester = principalOf({ id: "usr_x" });
    expect((await rejection(identity.as(requester).rotateSigningKey({}))).code).toBe(Code.PermissionDenied);
    expect((await rejection(identity.as(SYSTEM).rotateSigningKey({}))).code).toBe(Code.PermissionDenied);
    expect((await rejection(identity.as(await staffPrincipal()).listSigningKeys({}))).code).toBe(
      Code.PermissionDenied,
    );
    expect((await rejection(identity.as().listSigningKeys({}))).code).toBe(Code.Unauthenticated);

    const rotatedAt = identity.clock.now();
    const rotation = await identity.as(await staffPrincipal()).rotateSigningKey({});
    expect(rotation.active!.kid).not.toBe(oldKid);
    expect(rotation.retiring.map((k) => k.kid)).toContain(oldKid);
    const retiring = rotation.retiring.find((k) => k.kid === oldKid)!;
    expect(Number(retiring.retiresAt!.seconds) * 1000).toBe(rotatedAt.getTime() + (3600 + 300) * 1000);

    const newToken = (await identity.as().issueToken(input)).accessToken;
    expect(decodeProtectedHeader(newToken).kid).toBe(rotation.active!.kid);

    // 59 minutes later both verify with the published set.
    await jump(identity, 59 * 60_000);
    let published = await jwks();
    expect(published.set.keys.map((k) => k.kid)).toEqual([rotation.active!.kid, oldKid]);
    await expect(jwtVerify(oldToken, published.keySet, published.options)).resolves.toBeDefined();
    await expect(jwtVerify(newToken, published.keySet, published.options)).resolves.toBeDefined();

    // Past retires_at the old key is no longer published (and its tokens have expired).
    await jump(identity, 6 * 60_000 + 1_000);
    published = await jwks();
    expect(published.set.keys.map((k) => k.kid)).toEqual([rotation.active!.kid]);
    await expect(
      jwtVerify(oldToken, published.keySet, { ...published.options, currentDate: rotatedAt }),
    ).rejects.toThrow();
    // Housekeeping deletes it.
    const purged = await identity.service.purgeExpiredRecords();
    expect(purged.signingKeys).toBeGreaterThanOrEqual(1);
    const kids = await identity.db.selectFrom("signing_keys").select("kid").execute();
    expect(kids.map((k) => k.kid)).not.toContain(oldKid);
  });

  it("lets staff change role and tier (event, version), and shows each caller only their own account", async () => {
    const input = registration("access");
    const { account } = await identity.as().registerAccount(input);
    const other = (await identity.as().registerAccount(registration("other"))).account!;
    const me = principalOf(account!);

    expect((await identity.as(me).getAccount({})).account!.email).toBe(input.email);
    expect((await identity.as(me).getAccount({ accountId: account!.id })).account!.id).toBe(account!.id);
    expect((await rejection(identity.as(me).getAccount({ accountId: other.id }))).code).toBe(Code.NotFound);
    expect((await rejection(identity.as(SYSTEM).getAccount({}))).code).toBe(Code.PermissionDenied);
    expect((await identity.as(await staffPrincipal()).getAccount({ accountId: other.id })).account!.id).toBe(
      other.id,
    );

    expect(
      (await rejection(identity.as(me).updateAccountAccess({ accountId: account!.id, tier: Tier.PRO }))).code,
    ).toBe(Code.PermissionDenied);
    const updated = await identity
      .as(await staffPrincipal())
      .updateAccountAccess({ accountId: account!.id, role: Role.OPERATOR, tier: Tier.PRO });
    expect(updated.account).toMatchObject({ role: Role.OPERATOR, tier: Tier.PRO });
    // Unspecified leaves a value alone; no change means no event.
    const same = await identity
      .as(await staffPrincipal())
      .updateAccountAccess({ accountId: account!.id, tier: Tier.PRO });
    expect(same.account).toMatchObject({ role: Role.OPERATOR, tier: Tier.PRO });

    const events = await identity.db
      .selectFrom("outbox")
      .select(["type", "aggregate_version"])
      .where("aggregate_id", "=", account!.id)
      .orderBy("seq")
      .execute();
    expect(events).toEqual([
      { type: "petri.identity.v1.AccountRegistered", aggregate_version: 1 },
      { type: "petri.identity.v1.AccountAccessChanged", aggregate_version: 2 },
      { type: "petri.identity.v1.CredentialsRevoked", aggregate_version: 3 },
    ]);
    const { keySet, options } = await jwks();
    const { payload } = await jwtVerify((await identity.as().issueToken(input)).accessToken, keySet, options);
    expect(payload).toMatchObject({ role: "operator", tier: "pro" });

    const missing = await rejection(
      identity.as(await staffPrincipal()).updateAccountAccess({ accountId: "usr_missing", tier: Tier.PRO }),
    );
    expect(missing.code).toBe(Code.NotFound);
  });
});
