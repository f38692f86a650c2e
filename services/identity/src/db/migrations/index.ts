import type { Migration } from "kysely";
import * as createAccounts from "./2026_11_21_1000_create_accounts.js";
import * as createCredentialsAndQuotas from "./2026_11_28_1000_create_credentials_and_quotas.js";
import * as createOperatorRoleSources from "./2026_12_10_1000_create_operator_role_sources.js";
import * as addCredentialRevocation from "./2026_12_20_1000_add_credential_revocation.js";
import * as addCustomTier from "./2027_01_10_1000_add_custom_tier.js";
import * as oneQuotaRowPerSubject from "./2027_01_10_1100_one_quota_row_per_subject.js";
import * as deadLetterReplays from "./2027_02_01_1000_dead_letter_replays.js";

/** Every migration of the identity schema, by name (names sort in order). */
export const identityMigrations: Record<string, Migration> = {
  "2026_11_21_1000_create_accounts": createAccounts,
  "2026_11_28_1000_create_credentials_and_quotas": createCredentialsAndQuotas,
  "2026_12_10_1000_create_operator_role_sources": createOperatorRoleSources,
  "2026_12_20_1000_add_credential_revocation": addCredentialRevocation,
  "2027_01_10_1000_add_custom_tier": addCustomTier,
  "2027_01_10_1100_one_quota_row_per_subject": oneQuotaRowPerSubject,
  "2027_02_01_1000_dead_letter_replays": deadLetterReplays,
};
