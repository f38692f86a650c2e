/**
 * Rate-limit quotas: fixed windows aligned to the clock, counted per subject in a shared
 * store so that every gateway replica draws from the same counters (docs/api.md, Limits).
 *
 * A fixed window admits at most its limit between two resets; a burst straddling a reset
 * can see up to twice the limit within 60 s (a documented choice).
 *
 * The grant of a draw, min(requested, remaining of every window) and never below zero, is
 * computed by the draw statement itself under the counter row's lock (app/acquire-quota.ts),
 * so that concurrent draws from every replica are exact.
 */
import {
  ADDRESS_AUTH_FAILURES_PER_MINUTE,
  ANONYMOUS_RATE_LIMITS,
  CREDENTIAL_FAILURES_PER_MINUTE,
  TIER_RATE_LIMITS,
  type WindowLimits,
} from "@petri/contracts";
import { type FieldError, ValidationError } from "@petri/service-kit";
import type { QuotaPolicyName, TierName } from "@petri/contracts/vocabulary";

export type WindowName = "minute" | "day";
type PublishedTier = Exclude<TierName, "custom">;

/** A policy's limits: every policy counts per minute, some also per UTC day (null: no day limit). */
export interface QuotaLimits {
  minute: number;
  day: number | null;
}

const published = (limits: WindowLimits): QuotaLimits => ({ minute: limits.perMinute, day: limits.perDay });

/** Per account (not per key or token), by tier. */
export const ACCOUNT_QUOTAS: Readonly<Record<PublishedTier, QuotaLimits>> = {
  standard: published(TIER_RATE_LIMITS.standard),
  pro: published(TIER_RATE_LIMITS.pro),
  ai_agent: published(TIER_RATE_LIMITS.ai_agent),
};
/** Requests without credentials, per source address. */
export const ANONYMOUS_QUOTA: QuotaLimits = published(ANONYMOUS_RATE_LIMITS);
/** Failed authentication attempts, per source address whatever the credential (the ceiling). */
export const AUTH_FAILURE_QUOTA: QuotaLimits = { minute: ADDRESS_AUTH_FAILURES_PER_MINUTE, day: null };
/** Failed authentication attempts, per credential and source address pair. */
export const CREDENTIAL_FAILURE_QUOTA: QuotaLimits = { minute: CREDENTIAL_FAILURES_PER_MINUTE, day: null };

/**
 * Where a draw's limits come from: fixed ones, or the account's own (custom tier), which the
 * draw reads in its one statement; `limits` then apply only if the account has none (its tier
 * changed after the caller's credential was issued), and are the standard tier's, the lowest.
 */
export interface QuotaSource {
  limits: QuotaLimits;
  fromAccount: boolean;
}

export const MAX_DRAW = 100;
export const SUBJECT_MAX_LENGTH = 200;
/** Counters are kept this long after their last window (the day) ends, then purged. */
export const COUNTER_RETENTION_MS = 2 * 24 * 60 * 60 * 1000;

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export function quotaSource(policy: QuotaPolicyName, tier: TierName | undefined): QuotaSource {
  switch (policy) {
    case "account":
      if (!tier) throw new ValidationError("the draw is invalid", [tierRequired]);
      return tier === "custom"
        ? { limits: ACCOUNT_QUOTAS.standard, fromAccount: true }
        : { limits: ACCOUNT_QUOTAS[tier], fromAccount: false };
    case "anonymous":
      return { limits: ANONYMOUS_QUOTA, fromAccount: false };
    case "auth_failures":
      return { limits: AUTH_FAILURE_QUOTA, fromAccount: false };
    case "credential_failures":
      return { limits: CREDENTIAL_FAILURE_QUOTA, fromAccount: false };
  }
}

const tierRequired: FieldError = {
  field: "tier",
  code: "missing_required",
  message: "tier is required for the account policy",
};

/** [start, end) of the window containing `now`: the minute, or the UTC day. */
export function windowBounds(name: WindowName, now: Date): { start: Date; end: Date } {
  const size = name === "minute" ? MINUTE_MS : DAY_MS;
  const start = Math.floor(now.getTime() / size) * size;
  return { start: new Date(start), end: new Date(start + size) };
}

export interface DrawInput {
  policy: QuotaPolicyName | undefined;
  subject: string;
  tier: TierName | undefined;
  requested: number;
}

export function validateDraw(input: DrawInput): FieldError[] {
  const problems: FieldError[] = [];
  if (!input.policy)
    problems.push({ field: "policy", code: "missing_required", message: "policy is required" });
  if (input.subject.trim() === "")
    problems.push({ field: "subject", code: "missing_required", message: "subject is required" });
  else if (input.subject.length > SUBJECT_MAX_LENGTH)
    problems.push({
      field: "subject",
      code: "invalid_value",
      message: `subject is longer than ${SUBJECT_MAX_LENGTH} characters`,
    });
  if (input.policy === "account" && !input.tier) problems.push(tierRequired);
  if (!Number.isInteger(input.requested) || input.requested < 1 || input.requested > MAX_DRAW)
    problems.push({
      field: "requested",
      code: "invalid_value",
      message: `requested must be 1 to ${MAX_DRAW}`,
    });
  return problems;
}

export interface WindowState {
  name: WindowName;
  limit: number;
  remaining: number;
  resetsAt: Date;
}

/**
 * The window that binds: the fewest requests remaining; on a tie the one resetting later,
 * since waiting for the earlier reset would not help.
 */
export function bindingWindow(windows: readonly WindowState[]): WindowState {
  const [first, ...rest] = windows;
  if (!first) throw new Error("a quota has at least one window");
  let best = first;
  for (const window of rest) {
    if (
      window.remaining < best.remaining ||
      (window.remaining === best.remaining && window.resetsAt.getTime() > best.resetsAt.getTime())
    )
      best = window;
  }
  return best;
}

/** Counter rows whose window ended before this instant may be deleted. */
export function purgeBefore(now: Date): Date {
  return new Date(now.getTime() - COUNTER_RETENTION_MS);
}

/**
 * A subject's counters (one row) may be deleted when its day window, the longest, started
 * before this instant: that window then ended before purgeBefore(now).
 */
export function purgeUsageBefore(now: Date): Date {
  return new Date(purgeBefore(now).getTime() - DAY_MS);
}

/** A subject's counters after a draw, as the draw statement returns them. */
export interface Usage {
  minuteStart: Date;
  minuteLimit: number;
  minuteUsed: number;
  dayStart: Date;
  /** Null for a policy without a day limit. */
  dayLimit: number | null;
  dayUsed: number;
}

/** The windows a draw reports: the minute, and the day when the policy limits it. */
export function usageWindows(usage: Usage): WindowState[] {
  const window = (name: WindowName, start: Date, limit: number, used: number): WindowState => ({
    name,
    limit,
    remaining: Math.max(0, limit - used),
    resetsAt: windowBounds(name, start).end,
  });
  const windows = [window("minute", usage.minuteStart, usage.minuteLimit, usage.minuteUsed)];
  if (usage.dayLimit !== null) windows.push(window("day", usage.dayStart, usage.dayLimit, usage.dayUsed));
  return windows;
}
