/** GET /admin/notifications/mail (staff): the e-mails sent, newest first, keyset-paginated. */
import { decodeKeysetCursor, parseLimit } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { countSentMail, listSentMail } from "../db/mail.js";
import type { NotificationsDb, SentMailRow } from "../db/schema.js";
import { keysetPage } from "./keyset-page.js";

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
    const { page, hasMore, nextCursor } = keysetPage(rows, limit, (row) => row.sent_at);
    return { mails: page, total, hasMore, nextCursor };
  };
}
