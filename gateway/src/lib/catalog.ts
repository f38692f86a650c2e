/**
 * Fixed public values: tier limits (docs/api.md, Limits) and the enumerations a client needs
 * before its first request (docs/api.md and docs/intake-model.md). Served by GET /config.
 *
 * The tier limits come from @petri/contracts, the same numbers identity enforces (AcquireQuota).
 */
import {
  ADDRESS_AUTH_FAILURES_PER_MINUTE,
  CREDENTIAL_FAILURES_PER_MINUTE,
  TIER_RATE_LIMITS,
} from "@petri/contracts";
import { BSL_LEVELS, type BslLevelName } from "@petri/contracts/vocabulary";
import type { PublishedTier } from "./identity-json.js";

export interface TierLimits {
  requests_per_minute: number;
  requests_per_day: number;
}

const published = (tier: PublishedTier): TierLimits => ({
  requests_per_minute: TIER_RATE_LIMITS[tier].perMinute,
  requests_per_day: TIER_RATE_LIMITS[tier].perDay,
});

/** The published tiers' limits; a custom tier's are the account's own (Account.rate_limits). */
export const TIER_LIMITS: Record<PublishedTier, TierLimits> = {
  standard: published("standard"),
  pro: published("pro"),
  ai_agent: published("ai_agent"),
};

/** Failed authentications per credential and source address (identity's CREDENTIAL_FAILURES). */
export const FAILED_AUTHENTICATIONS_PER_MINUTE = CREDENTIAL_FAILURES_PER_MINUTE;
/** Failed authentications per source address, any credential (identity's AUTH_FAILURES). */
export const FAILED_AUTHENTICATIONS_PER_ADDRESS_PER_MINUTE = ADDRESS_AUTH_FAILURES_PER_MINUTE;

/** The levels Petri runs; BSL-3 and BSL-4 are accepted in a request only to be flagged and rejected. */
export const SUPPORTED_BSL_LEVELS = ["BSL-1", "BSL-2"] as const satisfies readonly BslLevelName[];
export const FLAGGED_BSL_LEVELS = BSL_LEVELS.filter(
  (level) => !(SUPPORTED_BSL_LEVELS as readonly string[]).includes(level),
);

/** Page sizes of every list (larger or non-positive limits are 422). */
export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;
