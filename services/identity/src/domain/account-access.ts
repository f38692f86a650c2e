import { CUSTOM_RATE_LIMIT_BOUNDS } from "@petri/contracts";
import type { FieldError } from "@petri/service-kit";
import type { RoleName, TierName } from "@petri/contracts/vocabulary";

/** A custom tier's limits: requests per minute and per UTC day. */
export interface CustomRateLimits {
  perMinute: number;
  perDay: number;
}

export interface AccessChange {
  role: RoleName;
  tier: TierName;
  /** Set exactly when tier is "custom". */
  rateLimits: CustomRateLimits | null;
  changed: boolean;
  /**
   * Whether the change must end the rights the account's credentials carry (role or tier):
   * new limits within the custom tier do not, since identity reads them at every draw.
   */
  credentialsChanged: boolean;
}

export interface CurrentAccess {
  role: RoleName;
  tier: TierName;
  rateLimits: CustomRateLimits | null;
}

export interface RequestedAccess {
  role?: RoleName | undefined;
  tier?: TierName | undefined;
  rateLimits?: CustomRateLimits | undefined;
}

/**
 * What is wrong with a requested change: rate limits go with the custom tier, and only with
 * it, within CUSTOM_RATE_LIMIT_BOUNDS.
 */
export function validateAccessChange(requested: RequestedAccess): FieldError[] {
  const limits = requested.rateLimits;
  if (requested.tier === "custom" && !limits)
    return [
      {
        field: "rate_limits",
        code: "missing_required",
        message: "rate_limits is required with the custom tier",
      },
    ];
  if (requested.tier !== "custom" && limits)
    return [
      {
        field: "rate_limits",
        code: "invalid_value",
        message: 'rate_limits can only be set with tier "custom"',
      },
    ];
  return limits ? rateLimitProblems(limits) : [];
}

function rateLimitProblems(limits: CustomRateLimits): FieldError[] {
  const problems: FieldError[] = [];
  const { perMinute: minute, perDay: day } = CUSTOM_RATE_LIMIT_BOUNDS;
  if (!Number.isInteger(limits.perMinute) || limits.perMinute < minute.min || limits.perMinute > minute.max)
    problems.push({
      field: "rate_limits.per_minute",
      code: "invalid_value",
      message: `per_minute must be an integer from ${minute.min} to ${minute.max}`,
    });
  if (!Number.isInteger(limits.perDay) || limits.perDay < limits.perMinute || limits.perDay > day.max)
    problems.push({
      field: "rate_limits.per_day",
      code: "invalid_value",
      message: `per_day must be an integer from per_minute to ${day.max}`,
    });
  return problems;
}

/** Applies a requested role and/or tier (undefined = leave as is) to the current access. */
export function planAccessChange(current: CurrentAccess, requested: RequestedAccess): AccessChange {
  const role = requested.role ?? current.role;
  const tier = requested.tier ?? current.tier;
  // Another tier clears custom limits; the custom tier keeps its limits unless new ones come.
  const rateLimits = tier === "custom" ? (requested.rateLimits ?? current.rateLimits) : null;
  const credentialsChanged = role !== current.role || tier !== current.tier;
  const limitsChanged =
    rateLimits?.perMinute !== current.rateLimits?.perMinute ||
    rateLimits?.perDay !== current.rateLimits?.perDay;
  return { role, tier, rateLimits, changed: credentialsChanged || limitsChanged, credentialsChanged };
}
