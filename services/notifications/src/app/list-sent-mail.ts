/** GET /admin/notifications/mail (staff): the e-mails sent, newest first, keyset-paginated. */
import { decodeKeysetCursor, encodeKeysetCursor, parseLimit } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { countSentMail, listSentMail } from "../db/mail.js";
import type { NotificationsDb, SentMailRow } from "../db/schema.js";

export function makeListSentMail(deps: { db: Kysely<NotificationsDb> }) {
  return async function listSentMailPage(input: {
    limit: number;
    cursor: string;
    accountId: string;
  }): Promise<{ mails: SentMailRow[]; total: number; nextCursor: string; hasMore: boolean }> {
    const limit = parseLimit(input.limit);
    const after = input.cursor === "" ? undefined : decodeKeysetCursor(input.cursor);
    const accountId = input.accountId === "" ? undefined : input.accountId;
    const [rows, total] = await Promise.all([
      listSentMail(deps.db, { accountId, after, limit: limit + 1 }),
      countSentMail(deps.db, accountId),
    ]);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const hasMore = rows.length > limit;
    return {
      mails: page,
      total,
      hasMore,
      nextCursor: hasMore && last ? encodeKeysetCursor({ at: last.sent_at, id: last.id }) : "",
    };
  };
}
