/** Client side of authentication: minting (and caching) the internal principal token of a call. */
import type { Interceptor } from "@connectrpc/connect";
import { systemClock, type Clock } from "../clock.js";
import { currentRequestContext } from "../context.js";
import {
  PRINCIPAL_HEADER,
  type InternalTokenIssuer,
  type IssuedInternalToken,
  type Principal,
} from "../principal.js";
import { kPrincipal } from "./principal-auth.js";

/**
 * Where a client gets tokens: an issuer (InternalTokenSigner; tokens are cached per
 * principal until shortly before they expire) or a function (called for every request;
 * it does its own caching).
 */
export type PrincipalTokenSource = InternalTokenIssuer | ((principal: Principal) => string | Promise<string>);

export interface AttachPrincipalOptions {
  clock?: Clock;
  /** Mint a new token when the cached one has less than this left. Default 10 s. */
  refreshBeforeExpiryMs?: number;
  /** Bound on cached principals (oldest evicted first). Default 10,000. */
  maxCachedPrincipals?: number;
}

interface CachedToken {
  pending: Promise<IssuedInternalToken>;
  issued?: IssuedInternalToken;
}

/** Per-principal token cache: signing costs far more than a Map lookup on every call. */
export class PrincipalTokenCache {
  private readonly entries = new Map<string, CachedToken>();
  private readonly clock: Clock;
  private readonly refreshBeforeExpiryMs: number;
  private readonly maxEntries: number;

  constructor(
    private readonly issuer: InternalTokenIssuer,
    options: AttachPrincipalOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.refreshBeforeExpiryMs = options.refreshBeforeExpiryMs ?? 10_000;
    this.maxEntries = options.maxCachedPrincipals ?? 10_000;
  }

  async tokenFor(principal: Principal): Promise<string> {
    const key = [principal.accountId, principal.role, principal.tier, principal.operatorId ?? ""].join(
      "\u0000",
    );
    const cached = this.entries.get(key);
    if (cached && !cached.issued) return (await cached.pending).token; // a concurrent call is signing
    if (cached?.issued) {
      const remaining = cached.issued.expiresAt.getTime() - this.clock.now().getTime();
      if (remaining > this.refreshBeforeExpiryMs) return cached.issued.token;
    }
    const entry: CachedToken = { pending: this.issuer.issue(principal) };
    this.entries.delete(key); // re-insert so Map order is least-recently-minted first
    this.entries.set(key, entry);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    try {
      entry.issued = await entry.pending;
      return entry.issued.token;
    } catch (error) {
      if (this.entries.get(key) === entry) this.entries.delete(key);
      throw error;
    }
  }
}

/**
 * Client: sets `x-petri-principal` for the principal of this call, taken from the call's
 * `contextValues` (kPrincipal) or else from the current request context. A header the
 * caller set explicitly is left alone; with no principal the call goes out without one.
 */
export function attachPrincipal(
  source: PrincipalTokenSource,
  options: AttachPrincipalOptions = {},
): Interceptor {
  const tokenFor =
    typeof source === "function"
      ? async (principal: Principal) => source(principal)
      : (
          (cache) => (principal: Principal) =>
            cache.tokenFor(principal)
        )(new PrincipalTokenCache(source, options));
  return (next) => async (req) => {
    if (!req.header.has(PRINCIPAL_HEADER)) {
      const principal = req.contextValues.get(kPrincipal) ?? currentRequestContext()?.principal;
      if (principal) req.header.set(PRINCIPAL_HEADER, await tokenFor(principal));
    }
    return next(req);
  };
}
