/**
 * The published rate limits (docs/api.md, Limits), in one place: identity enforces them and the
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

/**
 * Failed authentication attempts per credential (an account's e-mail, an API key, a token)
 * and source address, per minute: one user mistyping, or an attacker guessing one account,
 * is stopped without locking out the other people behind the same address (an office NAT).
 */
export const CREDENTIAL_FAILURES_PER_MINUTE = 20;

/**
 * Failed authentication attempts per source address and minute, whatever the credential: the
 * ceiling for an address trying many accounts (credential stuffing). Far above what a busy
 * office's mistakes add up to (50 people each locked out of their own account reach it).
 */
export const ADDRESS_AUTH_FAILURES_PER_MINUTE = 1_000;

/**
 * The custom tier: limits staff set for one account (internal and enterprise accounts), within
 * these bounds. A day never admits fewer requests than a minute.
 */
export const CUSTOM_RATE_LIMIT_BOUNDS = {
  perMinute: { min: 1, max: 1_000_000 },
  perDay: { max: 1_000_000_000 },
} as const;
