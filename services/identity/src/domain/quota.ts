/**
 * Rate-limit quotas: fixed windows aligned to the clock, counted per subject in a shared
 * store so that every gateway replica draws from the same counters (SPEC.md, Limits).
 *
 * A fixed window admits at most its limit between two resets; a burst straddling a reset
 * can see up to twice the limit within 60 s (reliability-test-plan R4, documented choice).
 */
import {
  ADDRESS_AUTH_FAILURES_PER_MINUTE,
  ANONYMOUS_RATE_LIMITS,
  CREDENTIAL_FAILURES_PER_MINUTE,
  TIER_RATE_LIMITS,
  type WindowLimits,
} from "@petri/contracts";
import { type FieldError, ValidationError } from "@petri/service-kit";
import type { AccountTier } from "./account-access.js";

export type QuotaPolicyName = "account" | "anonymous" | "auth_failures" | "credential_failures";
export type WindowName = "minute" | "day";

export interface WindowRule {
  name: WindowName;
  limit: number;
}

const windows = (limits: WindowLimits): readonly WindowRule[] => [
  { name: "minute", limit: limits.perMinute },
  { name: "day", limit: limits.perDay },
];

/** Per account (not per key or token), by tier. */
export const ACCOUNT_QUOTAS: Readonly<Record<AccountTier, readonly WindowRule[]>> = {
  standard: windows(TIER_RATE_LIMITS.standard),
  pro: windows(TIER_RATE_LIMITS.pro),
  ai_agent: windows(TIER_RATE_LIMITS.ai_agent),
};
/** Requests without credentials, per source address. */
export const ANONYMOUS_QUOTA: readonly WindowRule[] = windows(ANONYMOUS_RATE_LIMITS);
/** Failed authentication attempts, per source address whatever the credential (the ceiling). */
export const AUTH_FAILURE_QUOTA: readonly WindowRule[] = [
  { name: "minute", limit: ADDRESS_AUTH_FAILURES_PER_MINUTE },
];
/** Failed authentication attempts, per credential and source address pair. */
export const CREDENTIAL_FAILURE_QUOTA: readonly WindowRule[] = [
  { name: "minute", limit: CREDENTIAL_FAILURES_PER_MINUTE },
];

export const MAX_DRAW = 100;
export const SUBJECT_MAX_LENGTH = 200;
/** Counter rows are kept this long after their window ends, then purged. */
export const COUNTER_RETENTION_MS = 2 * 24 * 60 * 60 * 1000;

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export function quotaRules(policy: QuotaPolicyName, tier: AccountTier | undefined): readonly WindowRule[] {
  switch (policy) {
    case "account":
      if (!tier) throw new ValidationError("the draw is invalid", [tierRequired]);
      return ACCOUNT_QUOTAS[tier];
    case "anonymous":
      return ANONYMOUS_QUOTA;
    case "auth_failures":
      return AUTH_FAILURE_QUOTA;
    case "credential_failures":
      return CREDENTIAL_FAILURE_QUOTA;
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
  tier: AccountTier | undefined;
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

/** How many of `requested` fit in every window: min(requested, remaining of each), >= 0. */
export function grantFor(requested: number, windows: ReadonlyArray<{ limit: number; used: number }>): number {
  let grant = requested;
  for (const window of windows) grant = Math.min(grant, window.limit - window.used);
  return Math.max(0, grant);
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
