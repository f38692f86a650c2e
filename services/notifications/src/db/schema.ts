import type { MessagingTables } from "@petri/db";

/** Who to e-mail about an account's webhooks (fed by identity's AccountRegistered). */
export interface AccountContactsTable {
  account_id: string;
  email: string;
  name: string;
  /** Aggregate version of the account the row reflects; older events are ignored. */
  account_version: number;
  updated_at: Date;
}

export interface NotificationsDb extends MessagingTables {
  account_contacts: AccountContactsTable;
}
