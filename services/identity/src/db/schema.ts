import type { MessagingTables } from "@petri/db";
import type { Generated } from "kysely";

export interface AccountsTable {
  id: string;
  email: string;
  password_hash: string;
  name: string;
  organization: string;
  role: "requester" | "operator" | "staff";
  tier: "standard" | "pro" | "ai_agent";
  version: Generated<number>;
  created_at: Date;
  updated_at: Date;
}

export interface IdentityDb extends MessagingTables {
  accounts: AccountsTable;
}
