/**
 * Sends the mail the use cases queued in `mail_outbox` (in the transaction that decided it),
 * to the account's address from `account_contacts`. A message is leased while it is being
 * sent, recorded in `sent_mail` and closed in one transaction after the transport accepted
 * it. With the table transport that is exactly once; over SMTP a crash between the server's
 * acceptance and the record sends it again after the lease (same Message-ID).
 *
 * An account whose address is not known yet (identity's event not consumed yet) is retried
 * with the same backoff as a transport failure: 1 min doubling to 1 h, for about a day.
 */
import { type Clock, type Logger } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { leaseDueMail, nextMailDueAt, recordMailFailure, recordSent } from "../db/mail.js";
import type { NotificationsDb } from "../db/schema.js";
import type { StepResult } from "@petri/service-kit";
import type { Mailer } from "./mailer.js";

export const MAIL_MAX_ATTEMPTS = 30;
const MAIL_LEASE_MS = 2 * 60_000;
const MAIL_BATCH = 20;

export function mailRetryDelayMs(attempts: number): number {
  return Math.min(60 * 60_000, 60_000 * 2 ** Math.max(0, attempts - 1));
}

export class MailDispatcher {
  constructor(
    private readonly deps: { db: Kysely<NotificationsDb>; clock: Clock; logger: Logger; mailer: Mailer },
  ) {}

  /** Sends one batch of due mail; returns how many messages it handled. */
  async dispatchDue(): Promise<number> {
    const now = this.deps.clock.now();
    const batch = await leaseDueMail(this.deps.db, {
      now,
      leaseUntil: new Date(now.getTime() + MAIL_LEASE_MS),
      limit: MAIL_BATCH,
    });
    for (const mail of batch) {
      const contact = await this.deps.db
        .selectFrom("account_contacts")
        .select("email")
        .where("account_id", "=", mail.account_id)
        .executeTakeFirst();
      try {
        if (!contact) throw new Error(`no e-mail address known for account ${mail.account_id} yet`);
        const sent = await this.deps.mailer.send({
          id: mail.id,
          to: contact.email,
          subject: mail.subject,
          text: mail.text,
        });
        await this.deps.db.transaction().execute((trx) =>
          recordSent(trx, {
            id: mail.id,
            account_id: mail.account_id,
            to_address: contact.email,
            subject: mail.subject,
            text: mail.text,
            kind: mail.kind,
            transport: this.deps.mailer.transport,
            message_id: sent.messageId ?? null,
            sent_at: this.deps.clock.now(),
          }),
        );
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const retryAt =
          mail.attempts < MAIL_MAX_ATTEMPTS
            ? new Date(this.deps.clock.now().getTime() + mailRetryDelayMs(mail.attempts))
            : undefined;
        this.deps.logger.warn(
          { mailId: mail.id, attempts: mail.attempts, err: message, givingUp: retryAt === undefined },
          "e-mail not sent",
        );
        await recordMailFailure(this.deps.db, { id: mail.id, error: message.slice(0, 1_000), retryAt });
      }
    }
    return batch.length;
  }

  /** One step of the background loop. */
  async step(): Promise<StepResult> {
    const handled = await this.dispatchDue();
    if (handled > 0) return { again: true };
    return { again: false, dueAt: await nextMailDueAt(this.deps.db) };
  }
}
