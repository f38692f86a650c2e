/**
 * The account's webhook state as the RPCs report it: its signing secret's metadata (never
 * the secret) and whether its deliveries are paused.
 */
import type { Kysely } from "kysely";
import { countPausedDeliveries } from "../db/deliveries.js";
import { findAccount } from "../db/accounts.js";
import { validSecrets } from "../db/secrets.js";
import type { NotificationsDb, WebhookSecretRow } from "../db/schema.js";

export interface SecretInfo {
  id: string;
  createdAt: Date;
  revealed: boolean;
  /** Set while a rotated-out secret still signs. */
  previousValidUntil?: Date | undefined;
}

export interface WebhookSettings {
  secret?: SecretInfo | undefined;
  paused: boolean;
  pausedAt?: Date | undefined;
  pausedByDeliveryId?: string | undefined;
  pausedDeliveries: number;
}

/** Metadata of the current secret, given every secret valid now (newest first). */
export function secretInfo(valid: readonly WebhookSecretRow[]): SecretInfo | undefined {
  const current = valid.find((row) => row.retires_at === null);
  if (!current) return undefined;
  const previous = valid.find((row) => row.retires_at !== null);
  return {
    id: current.id,
    createdAt: current.created_at,
    revealed: current.revealed_at !== null,
    previousValidUntil: previous?.retires_at ?? undefined,
  };
}

export async function loadWebhookSettings(
  db: Kysely<NotificationsDb>,
  accountId: string,
  now: Date,
): Promise<WebhookSettings> {
  const [secrets, account, pausedDeliveries] = await Promise.all([
    validSecrets(db, accountId, now),
    findAccount(db, accountId),
    countPausedDeliveries(db, accountId),
  ]);
  const pausedAt = account?.paused_at ?? undefined;
  return {
    secret: secretInfo(secrets),
    paused: pausedAt !== undefined,
    pausedAt,
    pausedByDeliveryId: account?.paused_by_delivery_id ?? undefined,
    pausedDeliveries,
  };
}

export function makeGetWebhookSettings(deps: { db: Kysely<NotificationsDb>; clock: { now(): Date } }) {
  /** GET /webhooks/settings. */
  return function getWebhookSettings(accountId: string): Promise<WebhookSettings> {
    return loadWebhookSettings(deps.db, accountId, deps.clock.now());
  };
}
