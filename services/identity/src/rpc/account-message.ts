import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type Account, AccountSchema, Role, Tier } from "@petri/contracts/identity";
import type { AccountsTable } from "../db/schema.js";

const ROLES: Record<AccountsTable["role"], Role> = {
  requester: Role.REQUESTER,
  operator: Role.OPERATOR,
  staff: Role.STAFF,
};
const TIERS: Record<AccountsTable["tier"], Tier> = {
  standard: Tier.STANDARD,
  pro: Tier.PRO,
  ai_agent: Tier.AI_AGENT,
};

export type AccountRecord = Omit<AccountsTable, "password_hash" | "version">;

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
  });
}
