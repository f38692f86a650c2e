import type { AccountsTable } from "./schema.js";

/** An account without its credentials: what use cases return and events carry. */
export type AccountRecord = Omit<
  AccountsTable,
  "password_hash" | "version" | "credentials_epoch" | "credentials_changed_at"
>;
