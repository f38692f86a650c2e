import { createHmac, createPublicKey } from "node:crypto";
import { SignJWT, importPKCS8 } from "jose";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { ManualClock } from "../test/manual-clock.js";
import {
  INTERNAL_TOKEN_AUDIENCE,
  INTERNAL_TOKEN_ISSUER,
  INTERNAL_TOKEN_TYPE,
  InternalTokenSigner,
  InternalTokenVerifier,
  InvalidInternalTokenError,
  generateInternalKeyPair,
  internalKeyId,
  type InternalKeyPair,
  type Principal,
} from "./principal.js";

const alice: Principal = { accountId: "usr_alice", role: "requester", tier: "pro" };
const labOperator: Principal = {
  accountId: "usr_bob",
  role: "operator",
  tier: "standard",
  operatorId: "op_lab1",
};

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

let keys: InternalKeyPair;
let other: InternalKeyPair;
let clock: ManualClock;
let signer: InternalTokenSigner;
let verifier: InternalTokenVerifier;

/** A token signed with our real key but with chosen header and claims. */
async function customToken(
  claims: Record<string, unknown>,
  header: Record<string, unknown> = {},
  privateKeyPem = keys.privateKeyPem,
): Promise<string> {
  const key = await importPKCS8(privateKeyPem, "EdDSA");
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "EdDSA", typ: INTERNAL_TOKEN_TYPE, kid: keys.kid, ...header })
    .sign(key);
}

function validClaims(): Record<string, unknown> {
  const now = Math.floor(clock.now().getTime() / 1000);
  return {
    iss: INTERNAL_TOKEN_ISSUER,
    aud: INTERNAL_TOKEN_AUDIENCE,
    sub: "usr_alice",
    role: "requester",
    tier: "pro",
    iat: now,
    exp: now + 60,
  };
}

beforeAll(async () => {
  keys = await generateInternalKeyPair();
  other = await generateInternalKeyPair();
});

describe("internal principal token", () => {
  beforeAll(async () => {
    clock = new ManualClock();
    signer = await InternalTokenSigner.create(keys.privateKeyPem, undefined, { clock });
    verifier = await InternalTokenVerifier.create([keys.publicKeyPem], { clock });
  });

  it("generateInternalKeyPair returns Ed25519 PEMs and their thumbprint kid", async () => {
    expect(keys.privateKeyPem).toContain("-----BEGIN PRIVATE KEY-----");
    expect(keys.publicKeyPem).toContain("-----BEGIN PUBLIC KEY-----");
    expect(createPublicKey(keys.publicKeyPem).asymmetricKeyType).toBe("ed25519");
    expect(keys.kid).toBe(await internalKeyId(createPublicKey(keys.publicKeyPem)));
    expect(signer.kid).toBe(keys.kid);
    expect(verifier.keyIds).toEqual([keys.kid]);
  });

  it("round-trips a principal, with and without an operator id", async () => {
    expect(await verifier.verify(await signer.sign(alice))).toEqual(alice);
    expect(await verifier.verify(await signer.sign(labOperator))).toEqual(labOperator);
  });

  it("signs a pinned header and 60 s claims", async () => {
    const { token, expiresAt } = await signer.issue(alice);
    const [header, payload] = token
      .split(".")
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, "base64url").toString()));
    expect(header).toEqual({ alg: "EdDSA", typ: "petri-internal+jwt", kid: keys.kid });
    const now = Math.floor(clock.now().getTime() / 1000);
    expect(payload).toEqual({
      iss: "petri-gateway",
      aud: "petri-internal",
      sub: "usr_alice",
      role: "requester",
      tier: "pro",
      iat: now,
      exp: now + 60,
    });
    expect(expiresAt.getTime()).toBe((now + 60) * 1000);
  });

  it("accepts a hand-made token with exactly the expected shape (the corpus below differs by one thing)", async () => {
    expect(await verifier.verify(await customToken(validClaims()))).toEqual(alice);
  });

  const corpus: Array<[string, () => Promise<string>, RegExp]> = [
    [
      "alg none",
      async () =>
        `${b64url({ alg: "none", typ: INTERNAL_TOKEN_TYPE, kid: keys.kid })}.${b64url(validClaims())}.`,
      /ALG_NOT_ALLOWED/,
    ],
    [
      "HS256 signed with the public key bytes",
      async () => {
        const signingInput = `${b64url({ alg: "HS256", typ: INTERNAL_TOKEN_TYPE, kid: keys.kid })}.${b64url(validClaims())}`;
        const mac = createHmac("sha256", Buffer.from(keys.publicKeyPem))
          .update(signingInput)
          .digest("base64url");
        return `${signingInput}.${mac}`;
      },
      /ALG_NOT_ALLOWED/,
    ],
    [
      "a signature by another key under our kid",
      async () => customToken(validClaims(), {}, other.privateKeyPem),
      /SIGNATURE_VERIFICATION_FAILED/,
    ],
    ["wrong audience", async () => customToken({ ...validClaims(), aud: "petri-public" }), /"aud"/],
    ["wrong issuer", async () => customToken({ ...validClaims(), iss: "someone-else" }), /"iss"/],
    [
      "missing exp",
      async () => {
        const { exp: _exp, ...claims } = validClaims();
        return customToken(claims);
      },
      /missing required "exp"/,
    ],
    [
      "missing iat",
      async () => {
        const { iat: _iat, ...claims } = validClaims();
        return customToken(claims);
      },
      /missing required "iat"/,
    ],
    [
      "missing sub",
      async () => {
        const { sub: _sub, ...claims } = validClaims();
        return customToken(claims);
      },
      /missing required "sub"/,
    ],
    ["unknown kid", async () => customToken(validClaims(), { kid: "not-a-key-we-know" }), /unknown kid/],
    ["no kid", async () => customToken(validClaims(), { kid: undefined }), /missing kid/],
    [
      "a different typ (e.g. a public user JWT)",
      async () => customToken(validClaims(), { typ: "JWT" }),
      /"typ"/,
    ],
    ["an unknown role", async () => customToken({ ...validClaims(), role: "admin" }), /bad principal claims/],
    [
      "an unknown tier",
      async () => customToken({ ...validClaims(), tier: "platinum" }),
      /bad principal claims/,
    ],
    [
      "a long-lived token (iat too old although exp is in the future)",
      async () => {
        const now = Math.floor(clock.now().getTime() / 1000);
        return customToken({ ...validClaims(), iat: now - 3600, exp: now + 3600 });
      },
      /"iat"/,
    ],
    ["garbage", async () => "not.a.jwt", /JWS_INVALID/],
    ["empty", async () => "", /JWS_INVALID/],
  ];

  it.each(corpus)("rejects %s", async (_name, make, reason) => {
    const token = await make();
    const error = await verifier.verify(token).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInternalTokenError);
    expect((error as InvalidInternalTokenError).reason).toMatch(reason);
  });

  it("rejects an expired token by the injected clock, and accepts it just before", async () => {
    const token = await signer.sign(alice);
    const testClock = new ManualClock(clock.now().getTime());
    const laterVerifier = await InternalTokenVerifier.create([keys.publicKeyPem], { clock: testClock });
    testClock.advance(60_000); // exactly at exp: inside the 5 s skew tolerance
    expect(await laterVerifier.verify(token)).toEqual(alice);
    testClock.advance(6_000);
    const error = await laterVerifier.verify(token).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInternalTokenError);
    expect((error as InvalidInternalTokenError).reason).toMatch(/exp/);
    // The public message says nothing about which check failed.
    expect((error as Error).message).toBe("invalid internal principal token");
  });

  it("checks a token's signature once, then answers from the cache until its exp", async () => {
    const token = await signer.sign(alice);
    const testClock = new ManualClock(clock.now().getTime());
    const caching = await InternalTokenVerifier.create([keys.publicKeyPem], { clock: testClock });
    const signatureChecks = vi.spyOn(globalThis.crypto.subtle, "verify");
    try {
      expect(await caching.verify(token)).toEqual(alice);
      expect(await caching.verify(token)).toEqual(alice);
      testClock.advance(59_999);
      expect(await caching.verify(token)).toEqual(alice);
      expect(signatureChecks).toHaveBeenCalledTimes(1);
      // At exp the cached answer is gone: the token is checked again (and passes within the skew).
      testClock.advance(1);
      expect(await caching.verify(token)).toEqual(alice);
      expect(signatureChecks).toHaveBeenCalledTimes(2);
      testClock.advance(6_000);
      await expect(caching.verify(token)).rejects.toBeInstanceOf(InvalidInternalTokenError);
    } finally {
      signatureChecks.mockRestore();
    }
  });

  it("never caches a refused token, and a caller changing its principal does not change the cache", async () => {
    const caching = await InternalTokenVerifier.create([keys.publicKeyPem], { clock, cacheSize: 1 });
    const forged = await InternalTokenSigner.create(other.privateKeyPem, keys.kid, { clock });
    const bad = await forged.sign(alice);
    await expect(caching.verify(bad)).rejects.toBeInstanceOf(InvalidInternalTokenError);
    await expect(caching.verify(bad)).rejects.toBeInstanceOf(InvalidInternalTokenError);
    const token = await signer.sign(labOperator);
    const first = await caching.verify(token);
    first.accountId = "acct_someone_else";
    expect(await caching.verify(token)).toEqual(labOperator);
  });

  it("rotation: accepts tokens from either key, selected by kid", async () => {
    const oldSigner = await InternalTokenSigner.create(keys.privateKeyPem, "2026-01", { clock });
    const newSigner = await InternalTokenSigner.create(other.privateKeyPem, "2026-02", { clock });
    const rotating = await InternalTokenVerifier.create(
      [
        { kid: "2026-01", key: keys.publicKeyPem },
        { kid: "2026-02", key: other.publicKeyPem },
      ],
      { clock },
    );
    expect(await rotating.verify(await oldSigner.sign(alice))).toEqual(alice);
    expect(await rotating.verify(await newSigner.sign(labOperator))).toEqual(labOperator);

    // The kid selects the key: a token from the new key claiming the old kid fails.
    const confused = await InternalTokenSigner.create(other.privateKeyPem, "2026-01", { clock });
    await expect(rotating.verify(await confused.sign(alice))).rejects.toBeInstanceOf(
      InvalidInternalTokenError,
    );

    // After the rotation completes, the old kid is unknown.
    const rotated = await InternalTokenVerifier.create([{ kid: "2026-02", key: other.publicKeyPem }], {
      clock,
    });
    await expect(rotated.verify(await oldSigner.sign(alice))).rejects.toBeInstanceOf(
      InvalidInternalTokenError,
    );
  });

  it("reads keys as concatenated PEMs, a JWK or a JWKS (kid = thumbprint unless given)", async () => {
    const both = await InternalTokenVerifier.create([`${keys.publicKeyPem}\n${other.publicKeyPem}`], {
      clock,
    });
    expect(both.keyIds.sort()).toEqual([keys.kid, other.kid].sort());

    const jwk = createPublicKey(other.publicKeyPem).export({ format: "jwk" });
    const fromJwk = await InternalTokenVerifier.create([JSON.stringify(jwk)], { clock });
    expect(fromJwk.keyIds).toEqual([other.kid]);

    const jwks = JSON.stringify({ keys: [{ ...jwk, kid: "named" }] });
    const fromJwks = await InternalTokenVerifier.create([jwks], { clock });
    expect(fromJwks.keyIds).toEqual(["named"]);
    const namedSigner = await InternalTokenSigner.create(other.privateKeyPem, "named", { clock });
    expect(await fromJwks.verify(await namedSigner.sign(alice))).toEqual(alice);
  });

  it("refuses non-Ed25519 keys, duplicate kids and an empty key list", async () => {
    const { generateKeyPairSync } = await import("node:crypto");
    const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
    await expect(
      InternalTokenVerifier.create([rsa.publicKey.export({ format: "pem", type: "spki" }).toString()]),
    ).rejects.toThrow(/Ed25519/);
    await expect(
      InternalTokenSigner.create(rsa.privateKey.export({ format: "pem", type: "pkcs8" }).toString()),
    ).rejects.toThrow(/Ed25519/);
    await expect(InternalTokenVerifier.create([keys.publicKeyPem, keys.publicKeyPem])).rejects.toThrow(
      /duplicate/,
    );
    await expect(InternalTokenVerifier.create([])).rejects.toThrow(/at least one/);
  });
});
