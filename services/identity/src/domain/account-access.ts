export const ACCOUNT_ROLES = ["requester", "operator", "staff"] as const;
export const ACCOUNT_TIERS = ["standard", "pro", "ai_agent"] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];
/** The tier decides the account's rate limits (domain/quota.ts). */
export type AccountTier = (typeof ACCOUNT_TIERS)[number];

export interface AccessChange {
  role: AccountRole;
  tier: AccountTier;
  changed: boolean;
}

/** Applies a requested role and/or tier (undefined = leave as is) to the current access. */
export function planAccessChange(
  current: { role: AccountRole; tier: AccountTier },
  requested: { role?: AccountRole | undefined; tier?: AccountTier | undefined },
): AccessChange {
  const role = requested.role ?? current.role;
  const tier = requested.tier ?? current.tier;
  return { role, tier, changed: role !== current.role || tier !== current.tier };
}
