import type { MessagingTables } from "@petri/db";
import type { ColumnType, Generated, Selectable } from "kysely";

/** Who to e-mail about an account's webhooks (fed by identity's AccountRegistered). */
export interface AccountContactsTable {
  account_id: string;
  email: string;
  name: string;
  /** Aggregate version of the account the row reflects; older events are ignored. */
  account_version: number;
  updated_at: Date;
}

/** An account's signing secret, sealed under the KEK (KeyEncryptionKey in @petri/service-kit). */
export interface WebhookSecretsTable {
  /** "whs_..." */
  id: string;
  account_id: string;
  kek_id: string;
  nonce: Uint8Array;
  ciphertext: Uint8Array;
  created_at: Date;
  /** When it was shown (once); null until then. */
  revealed_at: Date | null;
  /** Null for the current secret; set by a rotation to the end of the overlap window. */
  retires_at: Date | null;
}

/** An account's delivery state: paused after a delivery's fifth failed attempt. */
export interface WebhookAccountsTable {
  account_id: string;
  paused_at: Date | null;
  paused_by_delivery_id: string | null;
  /** How many times the account was paused (one e-mail each). */
  pauses: Generated<number>;
  resumed_at: Date | null;
  updated_at: Date;
}

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed", "paused"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const CYCLE_TRIGGERS = ["event", "replay", "resume"] as const;
export type CycleTrigger = (typeof CYCLE_TRIGGERS)[number];

export interface WebhookDeliveriesTable {
  /** "msg_...": also the webhook-id header, the same on every attempt. */
  id: string;
  account_id: string;
  experiment_id: string;
  /** docs/api.md event name (claimed, started, completed, issue, approved, disputed). */
  event: string;
  /** The experiments event ("evt_...") it announces; unique. */
  source_event_id: string;
  experiment_version: number;
  url: string;
  /** "hostname:port": the unit of per-receiver concurrency. */
  host_key: string;
  /** The JSON body, serialised once; every attempt sends these bytes. */
  payload: string;
  status: DeliveryStatus;
  attempt_count: Generated<number>;
  cycle: Generated<number>;
  cycle_trigger: Generated<CycleTrigger>;
  /** Failed attempts in the current cycle (the retry schedule's position). */
  cycle_failures: Generated<number>;
  /** Set while pending. */
  next_attempt_at: Date | null;
  /** The worker holding it for an attempt, until lease_until. */
  lease_owner: string | null;
  lease_until: Date | null;
  last_attempt_at: Date | null;
  last_response_code: number | null;
  last_latency_ms: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  /**
   * The W3C traceparent of the event handling that scheduled it: each attempt's span joins
   * that trace. Null for deliveries scheduled outside one (test sends, older rows).
   */
  traceparent: ColumnType<string | null, string | null | undefined, never>;
  created_at: Date;
  updated_at: Date;
}

export interface WebhookAttemptsTable {
  delivery_id: string;
  number: number;
  cycle: number;
  trigger: CycleTrigger;
  attempted_at: Date;
  /** Null when no response arrived. */
  response_code: number | null;
  latency_ms: number;
  succeeded: boolean;
  error: string | null;
}

export interface WebhookTestWindowsTable {
  account_id: string;
  window_start: Date;
  count: number;
}

export type MailStatus = "pending" | "sent" | "failed";

/** E-mail decided in a transaction, sent by the mail dispatcher. */
export interface MailOutboxTable {
  /** "mail_..." */
  id: string;
  account_id: string;
  /** Why, e.g. "webhooks_paused". */
  kind: string;
  subject: string;
  text: string;
  status: MailStatus;
  attempts: Generated<number>;
  next_attempt_at: Date;
  lease_until: Date | null;
  last_error: string | null;
  created_at: Date;
}

export interface SentMailTable {
  /** The mail_outbox id: one row per e-mail, whatever the retries. */
  id: string;
  account_id: string;
  to_address: string;
  subject: string;
  text: string;
  kind: string;
  /** "table" (the standalone default: kept here only) or "smtp". */
  transport: string;
  message_id: string | null;
  sent_at: Date;
}

export interface NotificationsDb extends MessagingTables {
  account_contacts: AccountContactsTable;
  webhook_secrets: WebhookSecretsTable;
  webhook_accounts: WebhookAccountsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_test_windows: WebhookTestWindowsTable;
  mail_outbox: MailOutboxTable;
  sent_mail: SentMailTable;
}

export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;
export type WebhookSecretRow = Selectable<WebhookSecretsTable>;
export type WebhookAccountRow = Selectable<WebhookAccountsTable>;
export type SentMailRow = Selectable<SentMailTable>;
