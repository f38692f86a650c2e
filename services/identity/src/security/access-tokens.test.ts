import { createPrivateKey, createPublicKey, randomBytes } from "node:crypto";
import { KeyEncryptionKey } from "@petri/service-kit";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import {
  ACCESS_TOKEN_AUDIENCE,
  ACCESS_TOKEN_ISSUER,
  ACCESS_TOKEN_TYPE,
  accessTokenClaims,
  newTokenId,
  signAccessToken,
} from "./access-tokens.js";
import { IDENTITY_KEK_PURPOSE, generateSigningKey, openSigningKey, sealSigningKey } from "./signing-keys.js";

const subject = { accountId: "usr_1", role: "operator", tier: "pro", credentialsEpoch: 2 } as const;
const now = new Date("2026-03-01T12:00:00.750Z");

describe("access-token claims", () => {
  it("name issuer, audience, subject, role, tier, credentials epoch, iat, exp = iat + ttl and jti", () => {
    expect(accessTokenClaims(subject, now, 3600, "jti-1")).toEqual({
      iss: "petri-identity",
      aud: "petri-api",
      sub: "usr_1",
      role: "operator",
      tier: "pro",
      cep: 2,
      iat: Math.floor(now.getTime() / 1000),
      exp: Math.floor(now.getTime() / 1000) + 3600,
      jti: "jti-1",
    });
    expect(newTokenId()).not.toBe(newTokenId());
  });
});

describe("signed access tokens", () => {
  it("verify with the published JWK when alg, typ, iss and aud are pinned", async () => {
    const kek = KeyEncryptionKey.fromBytes(randomBytes(32), { purpose: IDENTITY_KEK_PURPOSE });
    const key = await generateSigningKey();
    const privateKey = openSigningKey(kek, key.kid, sealSigningKey(kek, key));
    const claims = accessTokenClaims(subject, now, 3600, "jti-2");
    const token = await signAccessToken({ kid: key.kid, privateKey }, claims);

    expect(decodeProtectedHeader(token)).toEqual({ alg: "EdDSA", kid: key.kid, typ: "at+jwt" });
    const jwks = createLocalJWKSet({ keys: [key.publicJwk] });
    const verified = await jwtVerify(token, jwks, {
      algorithms: ["EdDSA"],
      issuer: ACCESS_TOKEN_ISSUER,
      audience: ACCESS_TOKEN_AUDIENCE,
      typ: ACCESS_TOKEN_TYPE,
      requiredClaims: ["exp", "iat", "sub", "jti"],
      currentDate: new Date(now.getTime() + 60_000),
    });
    expect(verified.payload).toEqual(claims);

    // Expired one second after exp.
    await expect(
      jwtVerify(token, jwks, { algorithms: ["EdDSA"], currentDate: new Date((claims.exp + 1) * 1000) }),
    ).rejects.toThrow(/exp/);
    // The internal-token typ is not an access token's.
    await expect(jwtVerify(token, jwks, { typ: "petri-internal+jwt", currentDate: now })).rejects.toThrow(
      /typ/,
    );
  });

  it("uses the RFC 7638 thumbprint of the public key as kid, and keeps private members out of the JWK", async () => {
    const key = await generateSigningKey();
    expect(key.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Object.keys(key.publicJwk).sort()).toEqual(["alg", "crv", "kid", "kty", "use", "x"]);
    const fromDer = createPublicKey(
      createPrivateKey({ key: key.privateKeyDer, format: "der", type: "pkcs8" }),
    );
    expect(fromDer.export({ format: "jwk" }).x).toBe(key.publicJwk.x);
  });

  it("cannot open a sealed key under another kid", async () => {
    const kek = KeyEncryptionKey.fromBytes(randomBytes(32), { purpose: IDENTITY_KEK_PURPOSE });
    const key = await generateSigningKey();
    expect(() => openSigningKey(kek, "another-kid", sealSigningKey(kek, key))).toThrow();
  });
});
