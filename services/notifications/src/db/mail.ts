import { LeasedQueue, type LeasedQueueTable } from "@petri/db";
import type { Keyset } from "@petri/service-kit";
import type { Insertable, Kysely } from "kysely";
import type { MailOutboxTable, NotificationsDb, SentMailRow } from "./schema.js";

export async function enqueueMail(
  trx: Kysely<NotificationsDb>,
  mail: Insertable<MailOutboxTable>,
): Promise<void> {
  await trx.insertInto("mail_outbox").values(mail).execute();
}

/** Mail waiting to be sent, each due at its next attempt; leases are anonymous. */
const MAIL_QUEUE: LeasedQueueTable<NotificationsDb, "mail_outbox"> = {
  table: "mail_outbox",
  waiting: (eb) => eb("status", "=", "pending"),
  dueAt: "next_attempt_at",
  orderBy: ["next_attempt_at", "id"],
  attempts: "attempts",
  retryAt: "next_attempt_at",
};

const mailQueue = (db: Kysely<NotificationsDb>) => new LeasedQueue(db, MAIL_QUEUE);

/** Leases due mail for sending (other dispatchers skip it until the lease ends). */
export function leaseDueMail(
  db: Kysely<NotificationsDb>,
  input: { now: Date; leaseUntil: Date; limit: number },
) {
  return mailQueue(db).lease(input);
}

/** When the earliest pending mail falls due (the dispatcher sleeps until then). */
export function nextMailDueAt(db: Kysely<NotificationsDb>): Promise<Date | undefined> {
  return mailQueue(db).nextDueAt();
}

/** Records the sent mail and closes its outbox row, in one transaction (the caller's). */
export async function recordSent(trx: Kysely<NotificationsDb>, sent: SentMailRow): Promise<void> {
  await trx
    .insertInto("sent_mail")
    .values(sent)
    .onConflict((conflict) => conflict.column("id").doNothing())
    .execute();
  await mailQueue(trx).complete({ id: sent.id }, { status: "sent", last_error: null });
}

/** Retries the mail at `retryAt`, or fails it for good without one. */
export async function recordMailFailure(
  db: Kysely<NotificationsDb>,
  input: { id: string; error: string; retryAt: Date | undefined },
): Promise<void> {
  const queue = mailQueue(db);
  if (input.retryAt) await queue.retry({ id: input.id }, input.retryAt, { last_error: input.error });
  else await queue.complete({ id: input.id }, { status: "failed", last_error: input.error });
}

export function listSentMail(
  db: Kysely<NotificationsDb>,
  input: { accountId?: string | undefined; after?: Keyset | undefined; limit: number },
): Promise<SentMailRow[]> {
  return db
    .selectFrom("sent_mail")
    .selectAll()
    .$if(input.accountId !== undefined, (query) => query.where("account_id", "=", input.accountId!))
    .$if(input.after !== undefined, (query) =>
      query.where((eb) =>
        eb.or([
          eb("sent_at", "<", input.after!.at),
          eb.and([eb("sent_at", "=", input.after!.at), eb("id", "<", input.after!.id)]),
        ]),
      ),
    )
    .orderBy("sent_at", "desc")
    .orderBy("id", "desc")
    .limit(input.limit)
    .execute();
}

export async function countSentMail(db: Kysely<NotificationsDb>, accountId?: string): Promise<number> {
  const row = await db
    .selectFrom("sent_mail")
    .select((eb) => eb.fn.countAll<string | number>().as("n"))
    .$if(accountId !== undefined, (query) => query.where("account_id", "=", accountId!))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
