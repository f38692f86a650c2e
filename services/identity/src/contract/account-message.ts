import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type Account, AccountSchema, RateLimitsSchema, Role, Tier } from "@petri/contracts/identity";
import type { AccountRecord } from "../db/accounts.js";
import type { AccountRole, AccountTier } from "../domain/account-access.js";

const ROLES: Record<AccountRole, Role> = {
  requester: Role.REQUESTER,
  operator: Role.OPERATOR,
  staff: Role.STAFF,
};
const TIERS: Record<AccountTier, Tier> = {
  standard: Tier.STANDARD,
  pro: Tier.PRO,
  ai_agent: Tier.AI_AGENT,
  custom: Tier.CUSTOM,
};

export function roleMessage(role: AccountRole): Role {
  return ROLES[role];
}

export function tierMessage(tier: AccountTier): Tier {
  return TIERS[tier];
}

/** The domain role of a proto Role; undefined for UNSPECIFIED or an unknown number. */
export function roleFromMessage(role: Role): AccountRole | undefined {
  return (Object.keys(ROLES) as AccountRole[]).find((name) => ROLES[name] === role);
}

/** The domain tier of a proto Tier; undefined for UNSPECIFIED or an unknown number. */
export function tierFromMessage(tier: Tier): AccountTier | undefined {
  return (Object.keys(TIERS) as AccountTier[]).find((name) => TIERS[name] === tier);
}

/** The account as the contract shows it: never credentials. */
export function accountMessage(account: AccountRecord): Account {
  return create(AccountSchema, {
    id: account.id,
    email: account.email,
    name: account.name,
    organization: account.organization,
    role: ROLES[account.role],
    tier: TIERS[account.tier],
    createdAt: timestampFromDate(account.created_at),
    ...(account.rate_limit_per_minute !== null && account.rate_limit_per_day !== null
      ? {
          rateLimits: create(RateLimitsSchema, {
            perMinute: BigInt(account.rate_limit_per_minute),
            perDay: BigInt(account.rate_limit_per_day),
          }),
        }
      : {}),
  });
}
