import type { Keyset } from "@petri/service-kit";
import type { Insertable, Kysely } from "kysely";
import type { MailOutboxTable, NotificationsDb, SentMailRow } from "./schema.js";

export async function enqueueMail(
  trx: Kysely<NotificationsDb>,
  mail: Insertable<MailOutboxTable>,
): Promise<void> {
  await trx.insertInto("mail_outbox").values(mail).execute();
}

/** Leases due mail for sending (other dispatchers skip it until the lease ends). */
export function leaseDueMail(
  db: Kysely<NotificationsDb>,
  input: { now: Date; leaseUntil: Date; limit: number },
) {
  return db
    .updateTable("mail_outbox")
    .set((eb) => ({ lease_until: input.leaseUntil, attempts: eb("attempts", "+", 1) }))
    .where("id", "in", (eb) =>
      eb
        .selectFrom("mail_outbox")
        .select("id")
        .where("status", "=", "pending")
        .where("next_attempt_at", "<=", input.now)
        .where((w) => w.or([w("lease_until", "is", null), w("lease_until", "<=", input.now)]))
        .orderBy("next_attempt_at")
        .orderBy("id")
        .limit(input.limit)
        .forUpdate()
        .skipLocked(),
    )
    .returningAll()
    .execute();
}

/** Records the sent mail and closes its outbox row, in one transaction (the caller's). */
export async function recordSent(trx: Kysely<NotificationsDb>, sent: SentMailRow): Promise<void> {
  await trx
    .insertInto("sent_mail")
    .values(sent)
    .onConflict((conflict) => conflict.column("id").doNothing())
    .execute();
  await trx
    .updateTable("mail_outbox")
    .set({ status: "sent", lease_until: null, last_error: null })
    .where("id", "=", sent.id)
    .execute();
}

export async function recordMailFailure(
  db: Kysely<NotificationsDb>,
  input: { id: string; error: string; retryAt: Date | undefined },
): Promise<void> {
  await db
    .updateTable("mail_outbox")
    .set(
      input.retryAt
        ? { next_attempt_at: input.retryAt, lease_until: null, last_error: input.error }
        : { status: "failed", lease_until: null, last_error: input.error },
    )
    .where("id", "=", input.id)
    .execute();
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
