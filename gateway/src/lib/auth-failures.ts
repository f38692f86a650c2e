/**
 * The failed-authentication limiter (reliability-test-plan R8).
 *
 * Every failed authentication (a bad Bearer token, a malformed, unknown or revoked API key,
 * a wrong e-mail or password at POST /auth/token) draws 1 from identity's AUTH_FAILURES
 * quota of the source address; the counter is shared by every gateway instance. When an
 * address has nothing left, this gateway remembers it until the window resets, and requests
 * from that address that carry credentials are refused with 429 before their credentials are
 * evaluated (no signature check, no AuthenticateApiKey call).
 *
 * Sequential attempts are cut off exactly at the limit. Attempts already in flight when the
 * limit is reached are still evaluated (each gateway learns of the block from its own draw);
 * every one of them is counted by identity and answered 429 once the count is over.
 */
import { type Clock } from "@petri/service-kit";
import { QuotaPolicy } from "@petri/contracts/identity";
import { type DrawQuota, type QuotaDecision, bindingWindow, exhaustedUntil } from "./quota-draw.js";

export interface AuthFailureLimiterOptions {
  draw: DrawQuota;
  clock: Clock;
  maxEntries?: number;
}

export class AuthFailureLimiter {
  private readonly blocks = new Map<string, QuotaDecision>();
  private readonly maxEntries: number;

  constructor(private readonly options: AuthFailureLimiterOptions) {
    this.maxEntries = options.maxEntries ?? 100_000;
  }

  /** The 429 to answer when `address` is blocked, or undefined. */
  blocked(address: string): QuotaDecision | undefined {
    const block = this.blocks.get(address);
    if (!block) return undefined;
    if (this.options.clock.now().getTime() < block.resetAt) return block;
    this.blocks.delete(address);
    return undefined;
  }

  /**
   * Counts one failure of `address`. `allowed: false` means the failure was over the limit
   * (answer 429 instead of 401). Throws when identity cannot be reached.
   */
  async recordFailure(address: string): Promise<QuotaDecision> {
    const draw = await this.options.draw({ policy: QuotaPolicy.AUTH_FAILURES, subject: address }, 1);
    const binding = bindingWindow(draw.windows);
    const allowed = draw.granted > 0;
    const decision: QuotaDecision = {
      allowed,
      limit: binding.limit,
      remaining: binding.remaining,
      resetAt: binding.resetsAt,
      window: binding.name,
    };
    if (!allowed || binding.remaining <= 0) {
      const until = Math.max(exhaustedUntil(draw.windows), this.options.clock.now().getTime() + 1_000);
      this.blocks.delete(address);
      this.blocks.set(address, {
        allowed: false,
        limit: binding.limit,
        remaining: 0,
        resetAt: until,
        window: binding.name,
      });
      if (this.blocks.size > this.maxEntries) {
        const oldest = this.blocks.keys().next().value;
        if (oldest !== undefined) this.blocks.delete(oldest);
      }
      if (!allowed) return { ...decision, remaining: 0, resetAt: until };
    }
    return decision;
  }
}
