/**
 * The internal principal token (docs/architecture.md section 6).
 *
 * The gateway authenticates every public request, then calls a service with a short-lived
 * JWT naming the principal. Services verify it and authorize where the data is. The token
 * never leaves the cluster, so it is small and strict:
 *   header  {alg: "EdDSA", typ: "petri-internal+jwt", kid}
 *   claims  {iss: "petri-gateway", aud: "petri-internal", sub: accountId, role, tier, op?, iat, exp = iat + 60 s}
 * The algorithm is pinned (never taken from the token), the key is chosen by kid from an
 * explicit list (several during a rotation), and exp/iat/sub are mandatory.
 */
import {
  KeyObject,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type JsonWebKey as NodeJsonWebKey,
} from "node:crypto";
import {
  SignJWT,
  calculateJwkThumbprint,
  errors as joseErrors,
  importJWK,
  importPKCS8,
  jwtVerify,
  type CryptoKey,
  type JWK,
  type JWTHeaderParameters,
} from "jose";
import { z } from "zod";
import { ROLES, TIERS, type TierName } from "@petri/contracts/vocabulary";
import { systemClock, type Clock } from "./clock.js";
import { UnauthenticatedError } from "./errors.js";
import { ExpiringLruCache } from "./expiring-lru-cache.js";

/**
 * "system" is the gateway acting for itself, before a caller is known: authenticating an
 * API key, fetching signing keys, drawing rate-limit quota. No account ever has it.
 */
export const PRINCIPAL_ROLES = [...ROLES, "system"] as const;
export type PrincipalRole = (typeof PRINCIPAL_ROLES)[number];

/** The principal the gateway uses for its own calls (see PRINCIPAL_ROLES). */
export const GATEWAY_SYSTEM_PRINCIPAL: Principal = {
  accountId: "system:gateway",
  role: "system",
  tier: "standard",
};

/** Who is calling, as established by the gateway. */
export interface Principal {
  accountId: string;
  role: PrincipalRole;
  tier: TierName;
  /** Set when the account acts for a verified lab (role "operator"). */
  operatorId?: string;
}

export const INTERNAL_TOKEN_ISSUER = "petri-gateway";
export const INTERNAL_TOKEN_AUDIENCE = "petri-internal";
/** A distinct typ keeps a public user JWT from ever passing as an internal token. */
export const INTERNAL_TOKEN_TYPE = "petri-internal+jwt";
export const INTERNAL_TOKEN_ALGORITHM = "EdDSA";
export const INTERNAL_TOKEN_TTL_SECONDS = 60;
/** Header that carries the token on every gateway -> service call. */
export const PRINCIPAL_HEADER = "x-petri-principal";

/** Small skew between the gateway's and a service's clocks. */
const CLOCK_TOLERANCE_SECONDS = 5;
/** An iat older than this is refused even if exp says otherwise: tokens are minted per call. */
const MAX_TOKEN_AGE_SECONDS = 2 * INTERNAL_TOKEN_TTL_SECONDS;

const claimsSchema = z.object({
  sub: z.string().min(1),
  role: z.enum(PRINCIPAL_ROLES),
  tier: z.enum(TIERS),
  op: z.string().min(1).optional(),
});

/**
 * A token that failed verification. The public message is generic; `reason` is for logs
 * only (it may say which check failed, which a caller should not learn).
 */
export class InvalidInternalTokenError extends UnauthenticatedError {
  constructor(readonly reason: string) {
    super("invalid internal principal token");
  }
}

export interface IssuedInternalToken {
  token: string;
  expiresAt: Date;
}

/** Anything that can mint a token for a principal; the client interceptor caches by expiry. */
export interface InternalTokenIssuer {
  issue(principal: Principal): Promise<IssuedInternalToken>;
}

function assertEd25519(key: KeyObject, what: string): void {
  if (key.asymmetricKeyType !== "ed25519") {
    throw new Error(`${what} must be an Ed25519 key (got ${key.asymmetricKeyType ?? key.type})`);
  }
}

/** Env values often carry PEM newlines as the two characters "\n". */
function unescapeNewlines(text: string): string {
  return text.trim().replace(/\\n/g, "\n");
}

function publicJwkOf(key: KeyObject): JWK {
  const jwk = key.export({ format: "jwk" }) as JWK;
  // Only the public members: a verifier never holds private material.
  return { kty: jwk.kty, crv: jwk.crv, x: jwk.x };
}

/** RFC 7638 thumbprint: a stable kid derived from the key itself when none is given. */
export async function internalKeyId(publicKey: KeyObject | JWK): Promise<string> {
  const jwk =
    publicKey instanceof KeyObject
      ? publicJwkOf(publicKey)
      : { kty: publicKey.kty, crv: publicKey.crv, x: publicKey.x };
  return calculateJwkThumbprint(jwk, "sha256");
}

export class InternalTokenSigner implements InternalTokenIssuer {
  private constructor(
    private readonly key: CryptoKey,
    readonly kid: string,
    private readonly clock: Clock,
    private readonly ttlSeconds: number,
  ) {}

  /**
   * @param privateKey PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----") or a private JWK as JSON.
   * @param kid key id put in the header; defaults to the public key's RFC 7638 thumbprint,
   *   which is also what a verifier derives for a bare PEM public key.
   */
  static async create(
    privateKey: string,
    kid?: string,
    options: { clock?: Clock; ttlSeconds?: number } = {},
  ): Promise<InternalTokenSigner> {
    const text = unescapeNewlines(privateKey);
    const keyObject = text.startsWith("{")
      ? createPrivateKey({ key: JSON.parse(text) as NodeJsonWebKey, format: "jwk" })
      : createPrivateKey(text);
    assertEd25519(keyObject, "the internal token signing key");
    const pkcs8 = keyObject.export({ format: "pem", type: "pkcs8" }).toString();
    const key = await importPKCS8(pkcs8, INTERNAL_TOKEN_ALGORITHM);
    const keyId = kid ?? (await internalKeyId(createPublicKey(keyObject)));
    return new InternalTokenSigner(
      key,
      keyId,
      options.clock ?? systemClock,
      options.ttlSeconds ?? INTERNAL_TOKEN_TTL_SECONDS,
    );
  }

  async issue(principal: Principal): Promise<IssuedInternalToken> {
    const issuedAt = Math.floor(this.clock.now().getTime() / 1000);
    const expiresAt = issuedAt + this.ttlSeconds;
    const claims: Record<string, string> = { role: principal.role, tier: principal.tier };
    if (principal.operatorId) claims.op = principal.operatorId;
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: INTERNAL_TOKEN_ALGORITHM, typ: INTERNAL_TOKEN_TYPE, kid: this.kid })
      .setIssuer(INTERNAL_TOKEN_ISSUER)
      .setAudience(INTERNAL_TOKEN_AUDIENCE)
      .setSubject(principal.accountId)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(this.key);
    return { token, expiresAt: new Date(expiresAt * 1000) };
  }

  async sign(principal: Principal): Promise<string> {
    return (await this.issue(principal)).token;
  }
}

/**
 * A verification key: a string holding a PEM public key (one or several concatenated
 * blocks), a public JWK as JSON, or a JWKS ({"keys":[...]}) as JSON; or an explicit pair.
 * PEM keys and JWKs without "kid" get the RFC 7638 thumbprint as kid.
 */
export type InternalPublicKeyInput = string | { kid: string; key: string | JWK };

const PEM_PUBLIC_KEY = /-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/g;

async function expandPublicKeys(input: InternalPublicKeyInput): Promise<Array<{ kid: string; jwk: JWK }>> {
  if (typeof input !== "string") {
    const [only, ...rest] = await expandPublicKeys(
      typeof input.key === "string" ? input.key : JSON.stringify(input.key),
    );
    if (!only || rest.length > 0) throw new Error(`key ${input.kid} must hold exactly one public key`);
    return [{ kid: input.kid, jwk: only.jwk }];
  }
  const text = unescapeNewlines(input);
  const jwks: JWK[] = [];
  if (text.startsWith("{")) {
    const parsed = JSON.parse(text) as JWK | { keys: JWK[] };
    jwks.push(...("keys" in parsed && Array.isArray(parsed.keys) ? parsed.keys : [parsed as JWK]));
  } else {
    const blocks = text.match(PEM_PUBLIC_KEY);
    if (!blocks) throw new Error("a public key must be a PEM public key, a JWK or a JWKS");
    for (const pem of blocks) {
      const key = createPublicKey(pem);
      assertEd25519(key, "an internal token public key");
      jwks.push(publicJwkOf(key));
    }
  }
  const out: Array<{ kid: string; jwk: JWK }> = [];
  for (const jwk of jwks) {
    if (jwk.kty !== "OKP" || jwk.crv !== "Ed25519" || typeof jwk.x !== "string") {
      throw new Error("an internal token public key must be an Ed25519 (OKP) key");
    }
    if (jwk.alg !== undefined && jwk.alg !== INTERNAL_TOKEN_ALGORITHM && jwk.alg !== "Ed25519") {
      throw new Error(`an internal token public key declares alg ${jwk.alg}`);
    }
    out.push({ kid: jwk.kid ?? (await internalKeyId(jwk)), jwk: { kty: "OKP", crv: "Ed25519", x: jwk.x } });
  }
  return out;
}

/** Distinct internal tokens a verifier remembers: one per principal the gateway called for in the last minute. */
export const DEFAULT_VERIFIED_TOKEN_CACHE_SIZE = 10_000;

export class InternalTokenVerifier {
  /**
   * Verified tokens until their exp (or their maximum age, if sooner). The keys are fixed for
   * the verifier's life, so nothing else can make a verified token invalid before then.
   */
  private readonly verified: ExpiringLruCache<Principal>;

  private constructor(
    private readonly keys: ReadonlyMap<string, CryptoKey>,
    private readonly clock: Clock,
    cacheSize: number,
  ) {
    this.verified = new ExpiringLruCache(cacheSize);
  }

  static async create(
    publicKeys: readonly InternalPublicKeyInput[],
    options: { clock?: Clock; cacheSize?: number } = {},
  ): Promise<InternalTokenVerifier> {
    const keys = new Map<string, CryptoKey>();
    for (const input of publicKeys) {
      for (const { kid, jwk } of await expandPublicKeys(input)) {
        if (keys.has(kid)) throw new Error(`duplicate internal token key id ${kid}`);
        keys.set(kid, (await importJWK(jwk, INTERNAL_TOKEN_ALGORITHM)) as CryptoKey);
      }
    }
    if (keys.size === 0) throw new Error("at least one internal token public key is required");
    return new InternalTokenVerifier(
      keys,
      options.clock ?? systemClock,
      options.cacheSize ?? DEFAULT_VERIFIED_TOKEN_CACHE_SIZE,
    );
  }

  /** The key ids this verifier accepts. */
  get keyIds(): string[] {
    return [...this.keys.keys()];
  }

  /** Returns the principal, or throws InvalidInternalTokenError. */
  async verify(token: string): Promise<Principal> {
    const now = this.clock.now();
    const cached = this.verified.get(token, now.getTime());
    if (cached) return { ...cached };
    const selectKey = (header: JWTHeaderParameters): CryptoKey => {
      if (!header.kid) throw new InvalidInternalTokenError("missing kid");
      const key = this.keys.get(header.kid);
      if (!key) throw new InvalidInternalTokenError(`unknown kid ${header.kid}`);
      return key;
    };
    let payload: unknown;
    try {
      ({ payload } = await jwtVerify(token, selectKey, {
        algorithms: [INTERNAL_TOKEN_ALGORITHM],
        issuer: INTERNAL_TOKEN_ISSUER,
        audience: INTERNAL_TOKEN_AUDIENCE,
        typ: INTERNAL_TOKEN_TYPE,
        requiredClaims: ["exp", "iat", "sub"],
        maxTokenAge: MAX_TOKEN_AGE_SECONDS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: now,
      }));
    } catch (error) {
      if (error instanceof InvalidInternalTokenError) throw error;
      if (error instanceof joseErrors.JOSEError)
        throw new InvalidInternalTokenError(`${error.code}: ${error.message}`);
      throw new InvalidInternalTokenError("malformed token");
    }
    const claims = claimsSchema.safeParse(payload);
    if (!claims.success) throw new InvalidInternalTokenError("bad principal claims");
    const { sub, role, tier, op } = claims.data;
    const principal: Principal =
      op === undefined ? { accountId: sub, role, tier } : { accountId: sub, role, tier, operatorId: op };
    // jwtVerify required both as numbers. Kept no longer than exp and the maximum age allow,
    // without the clock tolerance: a cached answer is never more lenient than a fresh one.
    const { exp, iat } = payload as { exp: number; iat: number };
    const expiresAt = Math.min(exp, iat + MAX_TOKEN_AGE_SECONDS) * 1000;
    this.verified.set(token, principal, expiresAt, now.getTime());
    return { ...principal };
  }
}

export interface InternalKeyPair {
  /** PKCS#8 PEM, for the gateway (InternalTokenSigner.create). */
  privateKeyPem: string;
  /** SPKI PEM, for services (PETRI_INTERNAL_JWT_PUBLIC_KEY). */
  publicKeyPem: string;
  /** RFC 7638 thumbprint: the kid both sides derive by default. */
  kid: string;
}

/** A fresh Ed25519 key pair, for the standalone host and deploy/local scripts. */
export async function generateInternalKeyPair(): Promise<InternalKeyPair> {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  return {
    privateKeyPem: privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
    publicKeyPem: publicKey.export({ format: "pem", type: "spki" }).toString(),
    kid: await internalKeyId(publicKey),
  };
}
