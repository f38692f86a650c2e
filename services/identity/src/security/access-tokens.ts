/**
 * Access tokens (RFC 9068 style JWTs, RFC 8725 practices):
 *   header  {alg: "EdDSA", kid, typ: "at+jwt"}
 *   claims  {iss: "petri-identity", aud: "petri-api", sub: account id, role, tier, cep, iat, exp, jti}
 * cep is the account's credentials epoch at issuance: once identity raises it (role, tier or
 * password change), verifiers refuse the token.
 * Verifiers pin the algorithm, check typ, iss, aud and exp, and pick the key by kid from
 * ListSigningKeys. The distinct typ keeps these from passing as internal principal tokens
 * ("petri-internal+jwt") and vice versa.
 */
import { randomUUID, type KeyObject } from "node:crypto";
import type { RoleName, TierName } from "@petri/contracts/vocabulary";
import { SignJWT } from "jose";
import { ACCESS_TOKEN_ALGORITHM } from "./signing-keys.js";

export const ACCESS_TOKEN_ISSUER = "petri-identity";
export const ACCESS_TOKEN_AUDIENCE = "petri-api";
export const ACCESS_TOKEN_TYPE = "at+jwt";

export interface AccessTokenSubject {
  accountId: string;
  role: RoleName;
  tier: TierName;
  credentialsEpoch: number;
}

export interface AccessTokenClaims {
  iss: string;
  aud: string;
  sub: string;
  role: AccessTokenSubject["role"];
  tier: AccessTokenSubject["tier"];
  cep: number;
  iat: number;
  exp: number;
  jti: string;
}

/** The claims of a token issued at `now` for `ttlSeconds` (pure; jti is passed in). */
export function accessTokenClaims(
  subject: AccessTokenSubject,
  now: Date,
  ttlSeconds: number,
  jti: string,
): AccessTokenClaims {
  const iat = Math.floor(now.getTime() / 1000);
  return {
    iss: ACCESS_TOKEN_ISSUER,
    aud: ACCESS_TOKEN_AUDIENCE,
    sub: subject.accountId,
    role: subject.role,
    tier: subject.tier,
    cep: subject.credentialsEpoch,
    iat,
    exp: iat + ttlSeconds,
    jti,
  };
}

export function newTokenId(): string {
  return randomUUID();
}

export async function signAccessToken(
  key: { kid: string; privateKey: KeyObject },
  claims: AccessTokenClaims,
): Promise<string> {
  const { iss, aud, sub, iat, exp, jti, ...custom } = claims;
  return new SignJWT(custom)
    .setProtectedHeader({ alg: ACCESS_TOKEN_ALGORITHM, kid: key.kid, typ: ACCESS_TOKEN_TYPE })
    .setIssuer(iss)
    .setAudience(aud)
    .setSubject(sub)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .setJti(jti)
    .sign(key.privateKey);
}
