/**
 * Rate limits without an RPC per request: a lease client over identity's shared counters.
 *
 * The counters live in identity (AcquireQuota is atomic and shared by every gateway
 * instance), so k gateways together admit exactly the limit. To keep the hot path free of
 * a Connect hop, each gateway draws several requests at once and spends them locally:
 *   - per quota key (policy, subject, tier) it holds the tokens identity granted;
 *   - with no token left it draws again: 1 when the binding window has less than half its
 *     limit left (so at most one unspent token per gateway near the limit), otherwise
 *     min(100, floor(remaining / 10)): a tenth of what is left, so no gateway sits on much of
 *     what the others could admit, up to the contract's bound (at most 10 for the standard
 *     tier's 100 a minute; 100 from a limit of 1,000 up, so a busy high-limit account such as
 *     a custom-tier one costs one draw per 100 requests); 1 when nothing is known yet. That
 *     size is further bounded by the demand this key has shown in the current window
 *     (requests so far, per elapsed time, projected to the window's end): tokens that expire
 *     unspent were still counted in every window, including the day's, so prefetching for a
 *     client that sends two requests a minute would burn its daily quota about five times
 *     too fast;
 *   - tokens expire at the earliest reset among the policy's windows. (Identity says a grant
 *     is valid "until binding.resets_at at the latest"; a token drawn in one minute spent in
 *     the next would not have been counted there, so we stop at the first reset of any
 *     window, which is the binding one or earlier.)
 *   - concurrent requests for one key share one in-flight draw, which asks for at least as
 *     many requests as are waiting (at most 100, the contract's bound), so a burst is served
 *     by one draw;
 *   - when identity grants nothing, the key is refused locally until the exhausted windows
 *     reset, without further draws.
 * X-RateLimit-Remaining is identity's remaining after the last draw plus the unspent local
 * tokens, so on one gateway it decreases by one per admitted request and never increases
 * within a window.
 *
 * A failed draw (identity unreachable) rejects: the caller answers 503 (fail closed).
 */
import type { Clock } from "@petri/service-kit";
import {
  type DrawQuota,
  type QuotaDecision,
  type QuotaKey,
  bindingWindow,
  exhaustedUntil,
} from "./quota-draw.js";

/** AcquireQuotaRequest.requested is 1..100. */
const MAX_REQUESTED = 100;
export const MAX_TOKENS_PER_DRAW = MAX_REQUESTED;
/**
 * A reset identity reports in the past (its clock behind ours) still keeps tokens and blocks
 * for this long, so a skewed clock cannot make the lease draw in a tight loop.
 */
const MIN_VALIDITY_MS = 1_000;
/** Draws one request may wait for before giving up (only reachable under heavy contention). */
const MAX_DRAWS_PER_REQUEST = 50;

interface Lease {
  tokens: number;
  tokensValidUntil: number;
  /** Whether limit/remaining/resetAt describe a window that has not reset yet. */
  known: boolean;
  limit: number;
  remaining: number;
  resetAt: number;
  window: string;
  blockedUntil: number;
  inflight: Promise<void> | undefined;
  /** Requests of this key waiting for tokens right now. */
  waiting: number;
  /** Start of the current window as this gateway saw it, and requests admitted since. */
  windowStart: number;
  served: number;
}

export interface QuotaLeasesOptions {
  draw: DrawQuota;
  clock: Clock;
  /** Bound on remembered keys (least recently used dropped first). Default 100,000. */
  maxEntries?: number;
}

/** How many requests to draw, given what the last draw said (the documented rule). */
export function drawSize(known: boolean, limit: number, remaining: number): number {
  if (!known) return 1;
  if (remaining < limit / 2) return 1;
  return Math.max(1, Math.min(MAX_TOKENS_PER_DRAW, Math.floor(remaining / 10)));
}

/**
 * Requests this key is expected to send before `windowEnd`: its rate so far in the window
 * (at least over one second) times the time left. At least 1.
 */
export function expectedDemand(served: number, windowStart: number, windowEnd: number, now: number): number {
  const elapsed = Math.max(1_000, now - windowStart);
  return Math.max(1, Math.floor((served * Math.max(0, windowEnd - now)) / elapsed));
}

function leaseKey(key: QuotaKey): string {
  return `${key.policy}\u0000${key.subject}\u0000${key.tier ?? 0}`;
}

export class QuotaLeases {
  private readonly leases = new Map<string, Lease>();
  private readonly maxEntries: number;

  constructor(private readonly options: QuotaLeasesOptions) {
    this.maxEntries = options.maxEntries ?? 100_000;
  }

  /** Admits or refuses one request of `key`, with what the rate-limit headers say. */
  async acquire(key: QuotaKey): Promise<QuotaDecision> {
    const id = leaseKey(key);
    for (let attempt = 0; ; attempt += 1) {
      if (attempt > MAX_DRAWS_PER_REQUEST) throw new Error("quota draws did not settle");
      const lease = this.leaseFor(id);
      const now = this.options.clock.now().getTime();
      if (now >= lease.tokensValidUntil) {
        lease.tokens = 0;
        if (lease.served > 0 && lease.tokensValidUntil > 0) {
          // A window ended: demand is measured afresh.
          lease.served = 0;
          lease.windowStart = now;
        }
      }
      if (lease.served === 0 && lease.windowStart === 0) lease.windowStart = now;
      if (lease.known && now >= lease.resetAt) lease.known = false;
      if (lease.tokens > 0) {
        lease.tokens -= 1;
        lease.served += 1;
        return {
          allowed: true,
          limit: lease.limit,
          remaining: lease.remaining + lease.tokens,
          resetAt: lease.resetAt,
          window: lease.window,
        };
      }
      if (now < lease.blockedUntil) {
        return {
          allowed: false,
          limit: lease.limit,
          remaining: 0,
          resetAt: lease.blockedUntil,
          window: lease.window,
        };
      }
      if (!lease.inflight) {
        const prefetch = lease.known
          ? Math.min(
              drawSize(true, lease.limit, lease.remaining),
              expectedDemand(lease.served, lease.windowStart, lease.tokensValidUntil, now),
            )
          : 1;
        const requested = Math.min(MAX_REQUESTED, Math.max(prefetch, lease.waiting + 1));
        lease.inflight = this.options
          .draw(key, requested)
          .then((draw) => {
            const floor = this.options.clock.now().getTime() + MIN_VALIDITY_MS;
            const binding = bindingWindow(draw.windows);
            lease.tokens += draw.granted;
            lease.tokensValidUntil = Math.max(floor, Math.min(...draw.windows.map((w) => w.resetsAt)));
            lease.known = true;
            lease.limit = binding.limit;
            lease.remaining = binding.remaining;
            lease.resetAt = Math.max(floor, binding.resetsAt);
            lease.window = binding.name;
            if (draw.granted === 0 || binding.remaining <= 0) {
              lease.blockedUntil = Math.max(floor, exhaustedUntil(draw.windows));
            }
          })
          .finally(() => {
            lease.inflight = undefined;
          });
      }
      lease.waiting += 1;
      try {
        await lease.inflight;
      } finally {
        lease.waiting -= 1;
      }
    }
  }

  private leaseFor(id: string): Lease {
    let lease = this.leases.get(id);
    if (lease) {
      // Re-insert: Map order is then least recently used first.
      this.leases.delete(id);
      this.leases.set(id, lease);
      return lease;
    }
    lease = {
      tokens: 0,
      tokensValidUntil: 0,
      known: false,
      limit: 0,
      remaining: 0,
      resetAt: 0,
      window: "",
      blockedUntil: 0,
      inflight: undefined,
      waiting: 0,
      windowStart: 0,
      served: 0,
    };
    this.leases.set(id, lease);
    if (this.leases.size > this.maxEntries) {
      for (const [oldId, old] of this.leases) {
        if (this.leases.size <= this.maxEntries) break;
        if (!old.inflight && oldId !== id) this.leases.delete(oldId);
      }
    }
    return lease;
  }
}
