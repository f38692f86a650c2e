import type { Kysely } from "kysely";
import type { NotificationsDb } from "./schema.js";

/** Counts one call in the account's window and returns the count so far (windows older than a day are dropped). */
export async function drawTestWindow(
  trx: Kysely<NotificationsDb>,
  accountId: string,
  windowStart: Date,
): Promise<number> {
  await trx
    .deleteFrom("webhook_test_windows")
    .where("account_id", "=", accountId)
    .where("window_start", "<", new Date(windowStart.getTime() - 24 * 60 * 60_000))
    .execute();
  const row = await trx
    .insertInto("webhook_test_windows")
    .values({ account_id: accountId, window_start: windowStart, count: 1 })
    .onConflict((conflict) =>
      conflict
        .columns(["account_id", "window_start"])
        .doUpdateSet((eb) => ({ count: eb("webhook_test_windows.count", "+", 1) })),
    )
    .returning("count")
    .executeTakeFirstOrThrow();
  return row.count;
}
