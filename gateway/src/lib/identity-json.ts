/** Identity messages <-> the public JSON and the service-kit Principal. */
import { type Timestamp, timestampDate } from "@bufbuild/protobuf/wkt";
import {
  type Account,
  type ApiKey,
  type AuthenticatedPrincipal,
  type Role,
  Tier,
} from "@petri/contracts/identity";
import type { Principal, PrincipalRole } from "@petri/service-kit";
import {
  ROLE_NAME_BY_VALUE,
  ROLES,
  type RoleName,
  TIER_NAME_BY_VALUE,
  TIERS,
  type TierName,
} from "@petri/contracts/vocabulary";
import { TIER_LIMITS, type TierLimits } from "./catalog.js";

/** The tiers with published limits (docs/api.md, Limits), as GET /config lists them. */
export const PUBLISHED_TIERS = ["standard", "pro", "ai_agent"] as const satisfies readonly TierName[];
export type PublishedTier = (typeof PUBLISHED_TIERS)[number];

export function roleName(role: Role): RoleName | undefined {
  return ROLE_NAME_BY_VALUE.get(role);
}

export function tierName(tier: Tier): TierName | undefined {
  return TIER_NAME_BY_VALUE.get(tier);
}

export function isAccountRole(value: unknown): value is RoleName {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

export function isTier(value: unknown): value is TierName {
  return typeof value === "string" && (TIERS as readonly string[]).includes(value);
}

function iso(timestamp: Timestamp | undefined): string | null {
  return timestamp ? timestampDate(timestamp).toISOString() : null;
}

export function accountJson(account: Account) {
  return {
    id: account.id,
    email: account.email,
    name: account.name,
    organization: account.organization,
    role: roleName(account.role) ?? "requester",
    tier: tierName(account.tier) ?? "standard",
    created_at: iso(account.createdAt) ?? "",
  };
}

/** A custom tier's limits as staff set and see them; null for every other tier. */
export function rateLimitsJson(account: Account): { per_minute: number; per_day: number } | null {
  const limits = account.rateLimits;
  if (account.tier !== Tier.CUSTOM || !limits) return null;
  return { per_minute: Number(limits.perMinute), per_day: Number(limits.perDay) };
}

/** GET /auth/me: the caller's account and the limits that apply to it. */
export function ownAccountView(account: Account): {
  account: ReturnType<typeof accountJson>;
  limits: TierLimits;
} {
  const json = accountJson(account);
  const custom = rateLimitsJson(account);
  const limits =
    json.tier === "custom"
      ? // Identity always sends a custom tier's limits; the lowest tier's if it ever did not.
        custom
        ? { requests_per_minute: custom.per_minute, requests_per_day: custom.per_day }
        : TIER_LIMITS.standard
      : TIER_LIMITS[json.tier];
  return { account: json, limits };
}

export type OwnAccountView = ReturnType<typeof ownAccountView>;

/** The account as staff see it (the /admin/accounts operations): with a custom tier's limits. */
export function adminAccountJson(account: Account) {
  const limits = rateLimitsJson(account);
  return { ...accountJson(account), ...(limits ? { rate_limits: limits } : {}) };
}

export function apiKeyJson(key: ApiKey) {
  return {
    id: key.id,
    name: key.name,
    prefix: key.displayPrefix,
    created_at: iso(key.createdAt) ?? "",
    last_used_at: iso(key.lastUsedAt),
    revoked_at: iso(key.revokedAt),
  };
}

/** The principal an API key stands for, or undefined when identity sent something unusable. */
export function principalOf(authenticated: AuthenticatedPrincipal | undefined): Principal | undefined {
  if (!authenticated?.accountId) return undefined;
  const role: PrincipalRole | undefined = roleName(authenticated.role);
  const tier = tierName(authenticated.tier);
  if (!role || !tier) return undefined;
  const principal: Principal = { accountId: authenticated.accountId, role, tier };
  if (authenticated.operatorId) principal.operatorId = authenticated.operatorId;
  return principal;
}
