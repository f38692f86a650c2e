/**
 * The caller's own account as GET /auth/me shows it, cached per account so that a client
 * asking again and again costs no IdentityService.GetAccount call.
 *
 * Bounded in size (least recently used first, `maxEntries`) and in time (`ttlMs`, 5 s).
 * A cached view is served only while nothing says the account changed:
 *
 *   - Role and tier changes (the operator role taken back included) and password changes
 *     raise the account's credentials epoch. Each view remembers the epoch the revocation
 *     state (revocations.ts) knew before it was fetched, and a hit with another epoch is a
 *     miss. So such a change ends a cached view exactly when it ends the account's older
 *     access tokens on this gateway: at once when the revocation watch delivers it, else at
 *     the state's periodic load (30 s), and a state that cannot be loaded fails closed
 *     before any view is served (the guard checked it for this request's credential).
 *   - This gateway's own writes to an account (PATCH /admin/accounts/{id}) drop every
 *     cached view, before the epoch's event comes back over the watch; a fetch that was
 *     running meanwhile is not stored.
 *   - New limits within the custom tier raise no epoch (D220) and reach other gateways by
 *     nothing but expiry: there, such a view is at most `ttlMs` old.
 *
 * Name, e-mail, organization and creation time cannot change after registration.
 */
import type { Client } from "@connectrpc/connect";
import type { IdentityService } from "@petri/contracts/identity";
import { type Clock, ExpiringLruCache } from "@petri/service-kit";
import { asCaller } from "./clients.js";
import { type OwnAccountView, ownAccountView } from "./identity-json.js";
import type { RevocationState } from "./revocations.js";

export const DEFAULT_ACCOUNT_VIEW_TTL_MS = 5_000;
export const DEFAULT_ACCOUNT_VIEW_MAX_ENTRIES = 10_000;

export interface AccountViewsOptions {
  identity: Client<typeof IdentityService>;
  clock: Clock;
  revocations: RevocationState;
  ttlMs?: number;
  maxEntries?: number;
}

interface CachedView {
  view: OwnAccountView;
  /** The account's credentials epoch as the revocation state knew it before the fetch. */
  epoch: number;
}

export class AccountViews {
  // Keyed by account id.
  private readonly cache: ExpiringLruCache<CachedView>;
  /** Raised on every local invalidation, so a fetch that raced one is not stored. */
  private invalidations = 0;
  readonly ttlMs: number;

  constructor(private readonly options: AccountViewsOptions) {
    this.ttlMs = options.ttlMs ?? DEFAULT_ACCOUNT_VIEW_TTL_MS;
    this.cache = new ExpiringLruCache(options.maxEntries ?? DEFAULT_ACCOUNT_VIEW_MAX_ENTRIES);
  }

  /**
   * The view of the calling principal's own account (`accountId` is the principal's): from
   * the cache, or from GetAccount on behalf of the caller.
   */
  async own(accountId: string): Promise<OwnAccountView> {
    const { clock, revocations, identity } = this.options;
    const epoch = revocations.epochOf(accountId);
    const cached = this.cache.get(accountId, clock.now().getTime());
    if (cached && cached.epoch === epoch) return cached.view;

    const startedAt = this.invalidations;
    const { account } = await identity.getAccount({ accountId: "" }, asCaller());
    if (!account) throw new Error("identity returned no account");
    const view = ownAccountView(account);
    if (account.id === accountId && this.invalidations === startedAt) {
      const now = clock.now().getTime();
      this.cache.set(accountId, { view, epoch }, now + this.ttlMs, now);
    }
    return view;
  }

  /**
   * After this gateway changed an account: every cached view goes (such writes are rare
   * staff operations; dropping all keeps one counter enough to reject racing fetches).
   */
  accountChanged(): void {
    this.invalidations += 1;
    this.cache.clear();
  }
}
