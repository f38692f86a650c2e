import type { JsonbColumn, MessagingTables } from "@petri/db";
import type { Generated } from "kysely";
import type { RoleName, SigningKeyStateName, TierName } from "@petri/contracts/vocabulary";

export interface AccountsTable {
  id: string;
  email: string;
  password_hash: string;
  name: string;
  organization: string;
  role: RoleName;
  tier: TierName;
  /** The custom tier's limits; null (both) for every other tier. */
  rate_limit_per_minute: number | null;
  rate_limit_per_day: number | null;
  version: Generated<number>;
  /** Raised by every change that must end the rights the account's credentials carry. */
  credentials_epoch: Generated<number>;
  credentials_changed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** Access tokens ended before their expiry; a row is useless (and purged) once expires_at passed. */
export interface RevokedAccessTokensTable {
  jti: string;
  account_id: string;
  expires_at: Date;
  revoked_at: Date;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string;
  display_prefix: string;
  /** HMAC-SHA256(pepper, secret). */
  secret_hash: Uint8Array;
  created_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

export interface SigningKeysTable {
  kid: string;
  public_jwk: JsonbColumn<Record<string, string>>;
  private_key_ciphertext: Uint8Array;
  private_key_nonce: Uint8Array;
  kek_id: string;
  state: SigningKeyStateName;
  created_at: Date;
  retires_at: Date | null;
}

/**
 * One row per quota subject holding every window's counter, so that one row lock covers a
 * whole draw (app/acquire-quota.ts). The limits are the ones the last draw applied.
 */
export interface QuotaUsageTable {
  policy: string;
  subject: string;
  minute_start: Date;
  minute_limit: number;
  minute_used: number;
  day_start: Date;
  /** Null for a policy without a day limit (its day count is kept all the same). */
  day_limit: number | null;
  day_used: number;
  /** What the last draw granted: the statement's answer (RETURNING sees only the new row). */
  granted: number;
}

/** The last marketplace operator status applied to an account's role (version-guarded). */
export interface OperatorRoleSourcesTable {
  account_id: string;
  operator_id: string;
  operator_status: string;
  operator_version: string | number;
  updated_at: Date;
}

export interface IdentityDb extends MessagingTables {
  operator_role_sources: OperatorRoleSourcesTable;
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  revoked_access_tokens: RevokedAccessTokensTable;
  signing_keys: SigningKeysTable;
  quota_usage: QuotaUsageTable;
}
