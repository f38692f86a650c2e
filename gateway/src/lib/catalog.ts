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

/** docs/intake-model.md, Experiment types (all eight). */
export { EXPERIMENT_TYPES } from "@petri/contracts";

export const PRIVACY_LEVELS = ["open", "delayed_6mo", "delayed_12mo", "private"] as const;
export const SUPPORTED_BSL_LEVELS = ["BSL-1", "BSL-2"] as const;
/** Accepted in a request only to be flagged bsl_level_exceeded and rejected. */
export const FLAGGED_BSL_LEVELS = ["BSL-3", "BSL-4"] as const;
export const WEBHOOK_EVENTS = ["claimed", "started", "completed", "issue", "approved", "disputed"] as const;
export const DISPUTE_REASONS = [
  "results_incomplete",
  "results_incorrect",
  "protocol_not_followed",
  "documentation_insufficient",
  "other",
] as const;
export const DISPUTE_STATUSES = ["open", "resolved"] as const;
export const DISPUTE_OUTCOMES = ["requester", "operator", "split"] as const;
export const ISSUE_SEVERITIES = ["low", "medium", "high", "critical"] as const;
/** Operator statuses (the marketplace's status machine). */
export const OPERATOR_STATUSES = [
  "onboarding",
  "pending_verification",
  "active",
  "rejected",
  "paused",
  "suspended",
] as const;
export const TURNAROUND_PRIORITIES = ["standard", "expedited", "urgent"] as const;
export const BUDGET_FLEXIBILITY = ["strict", "flexible_10", "flexible_25", "flexible_50"] as const;

/** Page sizes of every list (larger or non-positive limits are 422). */
export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;
