/**
 * The published rate limits (SPEC.md, Limits), in one place: identity enforces them and the
 * gateway documents them (GET /config, GET /auth/me).
 */
export interface WindowLimits {
  perMinute: number;
  perDay: number;
}

export const TIER_RATE_LIMITS = {
  standard: { perMinute: 100, perDay: 1_000 },
  pro: { perMinute: 1_000, perDay: 10_000 },
  ai_agent: { perMinute: 500, perDay: 5_000 },
} as const satisfies Record<string, WindowLimits>;

export type RateLimitTier = keyof typeof TIER_RATE_LIMITS;

/** Requests without credentials, per source address. */
export const ANONYMOUS_RATE_LIMITS: WindowLimits = { perMinute: 60, perDay: 1_000 };

/** Failed authentication attempts per source address and minute. */
export const AUTH_FAILURES_PER_MINUTE = 20;
