import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type Account,
  AccountSchema,
  RateLimitsSchema,
  type Role,
  type Tier,
} from "@petri/contracts/identity";
import {
  ROLE_BY_NAME,
  ROLE_NAME_BY_VALUE,
  type RoleName,
  TIER_BY_NAME,
  TIER_NAME_BY_VALUE,
  type TierName,
} from "@petri/contracts/vocabulary";
import type { AccountRecord } from "../db/accounts.js";

export function roleMessage(role: RoleName): Role {
  return ROLE_BY_NAME[role];
}

export function tierMessage(tier: TierName): Tier {
  return TIER_BY_NAME[tier];
}

/** The domain role of a proto Role; undefined for UNSPECIFIED or an unknown number. */
export function roleFromMessage(role: Role): RoleName | undefined {
  return ROLE_NAME_BY_VALUE.get(role);
}

/** The domain tier of a proto Tier; undefined for UNSPECIFIED or an unknown number. */
export function tierFromMessage(tier: Tier): TierName | undefined {
  return TIER_NAME_BY_VALUE.get(tier);
}

/** The account as the contract shows it: never credentials. */
export function accountMessage(account: AccountRecord): Account {
  return create(AccountSchema, {
    id: account.id,
    email: account.email,
    name: account.name,
    organization: account.organization,
    role: ROLE_BY_NAME[account.role],
    tier: TIER_BY_NAME[account.tier],
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
