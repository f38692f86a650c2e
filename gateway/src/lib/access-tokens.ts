/**
 * Local verification of the public access tokens identity issues (Authorization: Bearer).
 *
 * A token is checked here without a call to identity: the public keys come from
 * IdentityService.ListSigningKeys (asked as the gateway's system principal) and are cached.
 *   - The cache is refreshed when it is older than `refreshIntervalMs` (60 s) on the next
 *     request, and when a token names a kid the cache does not hold, at most once per
 *     `minRefreshIntervalMs` (5 s), so random kids cannot turn into a flood of calls.
 *   - Concurrent requests share one refresh. If a refresh fails, the last key set keeps
 *     verifying for up to `maxStaleMs` (5 min); after that Bearer requests get 503.
 * The checks follow RFC 8725: algorithm pinned to EdDSA (never taken from the token, so
 * alg "none" and HS256-with-the-public-key fail), typ "at+jwt", iss and aud as identity
 * states them, exp required, 5 s clock tolerance, the key chosen by kid from the listed keys
 * only, a RETIRING key refused after its retires_at, and an iat in the future refused.
 *
 * Claims: sub (account id), role (requester | operator | staff), tier (standard | pro |
 * ai_agent), optional op (operator id), cep (the account's credentials epoch at issuance; 0
 * when absent) and jti. Anything else in role or tier is refused, so a public token can never
 * claim the gateway's "system" role. A token whose cep is below the account's current epoch
 * or whose jti was revoked is refused (lib/revocations.ts).
 *
 * A token that verified is remembered (ExpiringLruCache, by the exact token string, until its
 * exp or its key's retirement, whichever is first), so a client repeating its token costs no
 * signature check. What can change while the token lives is still checked on every request:
 * the revocation state, and that the current key set holds the same key under the token's kid
 * (a key dropped or replaced at identity stops verifying at the next key refresh, as before).
 */
import type { Client } from "@connectrpc/connect";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { type IdentityService, SigningKeyState } from "@petri/contracts/identity";
import {
  type Clock,
  type Logger,
  type Principal,
  UnavailableError,
  ExpiringLruCache,
} from "@petri/service-kit";
import { type CryptoKey, type JWTHeaderParameters, errors as joseErrors, importJWK, jwtVerify } from "jose";
import { asGateway } from "./clients.js";
import { CredentialRejectedError } from "./credential-errors.js";
import { isAccountRole, isTier } from "./identity-json.js";
import type { RevocationState } from "./revocations.js";

export const ACCESS_TOKEN_ALGORITHM = "EdDSA";
export const ACCESS_TOKEN_TYPE = "at+jwt";
export const ACCESS_TOKEN_CLOCK_TOLERANCE_SECONDS = 5;

export interface AccessTokenVerifierOptions {
  identity: Client<typeof IdentityService>;
  clock: Clock;
  logger: Logger;
  /** Age after which the key set is fetched again. Default 60 s. */
  refreshIntervalMs?: number;
  /** Least time between two fetches caused by unknown kids (or after a failed fetch). Default 5 s. */
  minRefreshIntervalMs?: number;
  /** How long the last key set keeps verifying while identity cannot be reached. Default 5 min. */
  maxStaleMs?: number;
  /** Revoked credentials; a valid signature is not enough while an epoch or jti says otherwise. */
  revocations: RevocationState;
  /** Verified tokens remembered (least recently used dropped first). Default 10,000. */
  verifiedCacheSize?: number;
}

export const DEFAULT_VERIFIED_ACCESS_TOKENS = 10_000;

/** A verified token's principal with the claims revocation needs. */
export interface VerifiedAccessToken {
  principal: Principal;
  jti: string;
  /** Epoch ms. */
  expiresAt: number;
}

interface VerificationKey {
  key: CryptoKey;
  /** The public key itself (JWK "x"): what a cached verification is tied to, not the kid alone. */
  x: string;
  /** Epoch ms after which a RETIRING key no longer verifies. */
  retiresAt?: number;
}

interface KeySet {
  keys: ReadonlyMap<string, VerificationKey>;
  issuer: string;
  audience: string;
  fetchedAt: number;
}

/** What a signature check established about a token, for as long as the token lives. */
interface VerifiedClaims {
  token: VerifiedAccessToken;
  /** The credentials epoch the token was issued under (cep; 0 when absent). */
  epoch: number;
  /** The key it verified under, which must still be current on a cache hit. */
  kid: string;
  x: string;
  issuer: string;
  audience: string;
}

export class AccessTokenVerifier {
  private keySet: KeySet | undefined;
  private readonly verified: ExpiringLruCache<VerifiedClaims>;
  private inflight: Promise<KeySet> | undefined;
  private lastAttemptAt = Number.NEGATIVE_INFINITY;
  private forceRefresh = false;
  private readonly refreshIntervalMs: number;
  private readonly minRefreshIntervalMs: number;
  private readonly maxStaleMs: number;

  constructor(private readonly options: AccessTokenVerifierOptions) {
    this.refreshIntervalMs = options.refreshIntervalMs ?? 60_000;
    this.minRefreshIntervalMs = options.minRefreshIntervalMs ?? 5_000;
    this.maxStaleMs = options.maxStaleMs ?? 300_000;
    this.verified = new ExpiringLruCache(options.verifiedCacheSize ?? DEFAULT_VERIFIED_ACCESS_TOKENS);
  }

  /** Makes the next verification fetch the key set first (after a rotation through this gateway). */
  markStale(): void {
    this.forceRefresh = true;
    this.lastAttemptAt = Number.NEGATIVE_INFINITY; // we know the keys changed: no 5 s wait
  }

  /** The principal named by a valid token; CredentialRejectedError or UnavailableError otherwise. */
  async verify(token: string): Promise<Principal> {
    return (await this.verifyToken(token)).principal;
  }

  /** As verify(), with the token's id and expiry (for revoking it). */
  async verifyToken(token: string): Promise<VerifiedAccessToken> {
    const revocations = this.options.revocations;
    await revocations.ready();
    const keySet = await this.currentKeySet();
    const now = this.options.clock.now();
    const cached = this.verified.get(token, now.getTime());
    const claims =
      cached && stillVerifies(cached, keySet, now.getTime())
        ? cached
        : await this.checkSignature(token, keySet, now);
    const { principal, jti } = claims.token;
    if (claims.epoch < revocations.epochOf(principal.accountId))
      throw new CredentialRejectedError("credentials epoch passed");
    if (jti !== "" && revocations.isRevoked(jti)) throw new CredentialRejectedError("token revoked");
    return { ...claims.token, principal: { ...principal } };
  }

  /** The full verification of a token (signature and claims), remembered when it passes. */
  private async checkSignature(token: string, current: KeySet, now: Date): Promise<VerifiedClaims> {
    let keySet = current;
    // The key jwtVerify was given (set by selectKey), which a cached answer is tied to.
    const selected: { kid?: string; key?: VerificationKey } = {};
    const selectKey = async (header: JWTHeaderParameters): Promise<CryptoKey> => {
      if (!header.kid) throw new CredentialRejectedError("token without kid");
      let entry = keySet.keys.get(header.kid);
      if (!entry && this.mayRefresh()) {
        keySet = await this.refreshOrFail();
        entry = keySet.keys.get(header.kid);
      }
      if (!entry) throw new CredentialRejectedError(`unknown kid ${header.kid}`);
      if (entry.retiresAt !== undefined && now.getTime() >= entry.retiresAt) {
        throw new CredentialRejectedError(`retired kid ${header.kid}`);
      }
      selected.kid = header.kid;
      selected.key = entry;
      return entry.key;
    };
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, selectKey, {
        algorithms: [ACCESS_TOKEN_ALGORITHM],
        typ: ACCESS_TOKEN_TYPE,
        issuer: keySet.issuer,
        audience: keySet.audience,
        requiredClaims: ["exp", "sub"],
        clockTolerance: ACCESS_TOKEN_CLOCK_TOLERANCE_SECONDS,
        currentDate: now,
      }));
    } catch (error) {
      if (error instanceof CredentialRejectedError || error instanceof UnavailableError) throw error;
      if (error instanceof joseErrors.JOSEError) throw new CredentialRejectedError(error.code);
      throw new CredentialRejectedError("malformed token");
    }
    const nowSeconds = Math.floor(now.getTime() / 1000);
    if (typeof payload.iat === "number" && payload.iat > nowSeconds + ACCESS_TOKEN_CLOCK_TOLERANCE_SECONDS) {
      throw new CredentialRejectedError("iat in the future");
    }
    const { sub, role, tier, op, cep, jti, exp } = payload;
    if (typeof sub !== "string" || sub === "") throw new CredentialRejectedError("bad sub");
    if (!isAccountRole(role)) throw new CredentialRejectedError("bad role claim");
    if (!isTier(tier)) throw new CredentialRejectedError("bad tier claim");
    if (op !== undefined && (typeof op !== "string" || op === ""))
      throw new CredentialRejectedError("bad op");
    if (cep !== undefined && (typeof cep !== "number" || !Number.isSafeInteger(cep) || cep < 0))
      throw new CredentialRejectedError("bad cep");
    if (jti !== undefined && (typeof jti !== "string" || jti === ""))
      throw new CredentialRejectedError("bad jti");
    const { kid, key } = selected;
    if (kid === undefined || key === undefined) throw new CredentialRejectedError("malformed token");
    const principal: Principal = { accountId: sub, role, tier };
    if (typeof op === "string") principal.operatorId = op;
    const expiresAt = (exp as number) * 1000;
    const claims: VerifiedClaims = {
      token: { principal, jti: jti ?? "", expiresAt },
      epoch: cep ?? 0,
      kid,
      x: key.x,
      issuer: keySet.issuer,
      audience: keySet.audience,
    };
    // Without the clock tolerance: a remembered answer is never more lenient than a fresh check.
    this.verified.set(token, claims, Math.min(expiresAt, key.retiresAt ?? Infinity), now.getTime());
    return claims;
  }

  private mayRefresh(): boolean {
    return this.options.clock.now().getTime() - this.lastAttemptAt >= this.minRefreshIntervalMs;
  }

  private async currentKeySet(): Promise<KeySet> {
    const now = this.options.clock.now().getTime();
    const cached = this.keySet;
    if (cached && !this.forceRefresh && now - cached.fetchedAt < this.refreshIntervalMs) return cached;
    if (cached && !this.mayRefresh()) return cached; // a fetch failed a moment ago
    try {
      return await this.refresh();
    } catch (error) {
      if (cached && now - cached.fetchedAt < this.maxStaleMs) {
        this.options.logger.warn({ err: error }, "signing keys refresh failed; using the cached keys");
        return cached;
      }
      throw new UnavailableError("access tokens cannot be verified right now; try again shortly");
    }
  }

  private async refreshOrFail(): Promise<KeySet> {
    try {
      return await this.refresh();
    } catch {
      throw new UnavailableError("access tokens cannot be verified right now; try again shortly");
    }
  }

  /** One fetch at a time; every caller waiting for a refresh shares it. */
  private refresh(): Promise<KeySet> {
    this.inflight ??= this.fetchKeySet().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async fetchKeySet(): Promise<KeySet> {
    this.lastAttemptAt = this.options.clock.now().getTime();
    const response = await this.options.identity.listSigningKeys({}, asGateway());
    if (!response.issuer || !response.audience) {
      throw new Error("ListSigningKeys returned no issuer or audience");
    }
    const keys = new Map<string, VerificationKey>();
    for (const signingKey of response.keys) {
      try {
        const jwk = JSON.parse(signingKey.publicJwkJson) as { kty?: unknown; crv?: unknown; x?: unknown };
        if (jwk.kty !== "OKP" || jwk.crv !== "Ed25519" || typeof jwk.x !== "string" || !signingKey.kid) {
          throw new Error("not an Ed25519 public JWK");
        }
        const key = (await importJWK(
          { kty: "OKP", crv: "Ed25519", x: jwk.x },
          ACCESS_TOKEN_ALGORITHM,
        )) as CryptoKey;
        const entry: VerificationKey = { key, x: jwk.x };
        if (signingKey.state === SigningKeyState.RETIRING && signingKey.retiresAt) {
          entry.retiresAt = timestampDate(signingKey.retiresAt).getTime();
        }
        keys.set(signingKey.kid, entry);
      } catch (error) {
        this.options.logger.error({ err: error, kid: signingKey.kid }, "ignoring an unusable signing key");
      }
    }
    const keySet: KeySet = {
      keys,
      issuer: response.issuer,
      audience: response.audience,
      fetchedAt: this.options.clock.now().getTime(),
    };
    this.keySet = keySet;
    this.forceRefresh = false;
    return keySet;
  }
}

/** Whether a remembered verification still holds under the key set in force now. */
function stillVerifies(claims: VerifiedClaims, keySet: KeySet, nowMs: number): boolean {
  const key = keySet.keys.get(claims.kid);
  return (
    key !== undefined &&
    key.x === claims.x &&
    (key.retiresAt === undefined || nowMs < key.retiresAt) &&
    keySet.issuer === claims.issuer &&
    keySet.audience === claims.audience
  );
}
