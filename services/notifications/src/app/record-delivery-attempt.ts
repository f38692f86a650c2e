/**
 * Records one attempt's outcome and moves the delivery on, in one transaction:
 *
 * - 2xx: succeeded. Only the delivery is locked: a success depends on nothing about the
 *   account, so it never waits for (or holds up) the account's other deliveries being
 *   scheduled, failed, paused or resumed.
 * - a failure with attempts left in the cycle: pending again at the schedule's next time
 *   (measured from now, the end of this attempt), or held if the account is paused.
 * - the cycle's fifth failure: the delivery is held and, unless the account already is, the
 *   account is paused: its pending deliveries are held too and exactly one e-mail is queued
 *   (in this transaction: the pause and its e-mail commit together, once).
 *
 * A failure takes the account's lock first, then the delivery's (the order pause and resume
 * use), because what follows a failure depends on whether the account is paused.
 *
 * An attempt whose lease was taken over (it outlived its lease) or whose cycle was replaced
 * by a resume is still logged, but leaves the schedule to the newer owner; a success always
 * counts, since the receiver has the event.
 */
import { type Clock, newId } from "@petri/service-kit";
import type { Kysely, Updateable } from "kysely";
import { lockAccount, pauseAccount } from "../db/accounts.js";
import { insertAttempt, lockDelivery, pausePendingDeliveries, updateDelivery } from "../db/deliveries.js";
import { enqueueMail } from "../db/mail.js";
import type { NotificationsDb, WebhookDeliveriesTable, WebhookDeliveryRow } from "../db/schema.js";
import type { AttemptOutcome } from "../domain/attempt-outcome.js";
import { PAUSE_NOTICE_KIND, pauseNotice } from "../domain/pause-notice.js";
import { nextAttemptAfterFailure } from "../domain/retry-schedule.js";

export type AttemptRecord = "succeeded" | "retry_scheduled" | "held" | "paused_account" | "superseded";

export interface AttemptToRecord {
  /** The row as leased for this attempt. */
  leased: WebhookDeliveryRow;
  owner: string;
  attemptedAt: Date;
  outcome: AttemptOutcome;
  latencyMs: number;
}

type Failure = Extract<AttemptOutcome, { success: false }>;

export function makeRecordDeliveryAttempt(deps: {
  db: Kysely<NotificationsDb>;
  clock: Clock;
  /** Wakes the mail dispatcher after a pause committed. */
  pokeMail(): void;
}) {
  return async function recordDeliveryAttempt(input: AttemptToRecord): Promise<AttemptRecord> {
    const now = deps.clock.now();
    const { outcome } = input;
    const result = await deps.db
      .transaction()
      .execute((trx) =>
        outcome.success ? recordSuccess(trx, input, now) : recordFailure(trx, input, outcome, now),
      );
    if (result === "paused_account") deps.pokeMail();
    return result;
  };
}

async function recordSuccess(
  trx: Kysely<NotificationsDb>,
  input: AttemptToRecord,
  now: Date,
): Promise<AttemptRecord> {
  const { current, logged } = await logAttempt(trx, input, now);
  await updateDelivery(trx, current.id, {
    ...logged,
    status: "succeeded",
    next_attempt_at: null,
    delivered_at: current.status === "succeeded" ? current.delivered_at : now,
  });
  return "succeeded";
}

async function recordFailure(
  trx: Kysely<NotificationsDb>,
  input: AttemptToRecord,
  outcome: Failure,
  now: Date,
): Promise<AttemptRecord> {
  const { leased } = input;
  const account = await lockAccount(trx, leased.account_id, now);
  const { current, logged, ours } = await logAttempt(trx, input, now);
  const scheduleIsOurs =
    ours && current.cycle === leased.cycle && (current.status === "pending" || current.status === "paused");
  if (!scheduleIsOurs) {
    await updateDelivery(
      trx,
      current.id,
      current.status === "succeeded" ? { ...logged, last_error: null } : logged,
    );
    return "superseded";
  }
  const failures = current.cycle_failures + 1;
  const next = nextAttemptAfterFailure(failures, now);
  const held = account.paused_at !== null || current.status === "paused";
  if (next && !held) {
    await updateDelivery(trx, current.id, {
      ...logged,
      status: "pending",
      cycle_failures: failures,
      next_attempt_at: next,
    });
    return "retry_scheduled";
  }
  await updateDelivery(trx, current.id, {
    ...logged,
    status: "paused",
    cycle_failures: failures,
    next_attempt_at: null,
  });
  if (next || account.paused_at !== null) return "held";
  await pauseAccountAfter(trx, current, outcome, now);
  return "paused_account";
}

/** Locks the delivery, logs the attempt, and gives the columns every outcome sets. */
async function logAttempt(
  trx: Kysely<NotificationsDb>,
  input: AttemptToRecord,
  now: Date,
): Promise<{ current: WebhookDeliveryRow; logged: Updateable<WebhookDeliveriesTable>; ours: boolean }> {
  const { leased, outcome } = input;
  const current = await lockDelivery(trx, leased.id);
  if (!current) throw new Error(`webhook delivery ${leased.id} disappeared during an attempt`);
  const number = current.attempt_count + 1;
  const error = outcome.success ? null : outcome.error;
  const responseCode = outcome.responseCode > 0 ? outcome.responseCode : null;
  await insertAttempt(trx, {
    delivery_id: current.id,
    number,
    cycle: leased.cycle,
    trigger: leased.cycle_trigger,
    attempted_at: input.attemptedAt,
    response_code: responseCode,
    latency_ms: input.latencyMs,
    succeeded: outcome.success,
    error,
  });
  const ours = current.lease_owner === input.owner;
  const logged = {
    attempt_count: number,
    last_attempt_at: input.attemptedAt,
    last_response_code: responseCode,
    last_latency_ms: input.latencyMs,
    last_error: error,
    updated_at: now,
    ...(ours ? { lease_owner: null, lease_until: null } : {}),
  };
  return { current, logged, ours };
}

/** The cycle's last failure pauses the account: its pending deliveries are held, one e-mail says so. */
async function pauseAccountAfter(
  trx: Kysely<NotificationsDb>,
  delivery: WebhookDeliveryRow,
  outcome: Failure,
  now: Date,
): Promise<void> {
  await pauseAccount(trx, delivery.account_id, delivery.id, now);
  await pausePendingDeliveries(trx, delivery.account_id, now);
  const notice = pauseNotice({
    deliveryId: delivery.id,
    event: delivery.event,
    experimentId: delivery.experiment_id,
    url: delivery.url,
    lastError: outcome.error,
    lastResponseCode: outcome.responseCode > 0 ? outcome.responseCode : null,
    pausedAt: now,
  });
  await enqueueMail(trx, {
    id: newId("mail", now),
    account_id: delivery.account_id,
    kind: PAUSE_NOTICE_KIND,
    subject: notice.subject,
    text: notice.text,
    status: "pending",
    next_attempt_at: now,
    lease_until: null,
    last_error: null,
    created_at: now,
  });
}
