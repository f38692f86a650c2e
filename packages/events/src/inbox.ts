import { FixedQuery, type MessagingTables } from "@petri/db";

/** The inbox row of one delivery, unless one is there already (then nothing is returned). */
export const claimInboxRow = new FixedQuery<
  MessagingTables,
  { consumer: string; event_id: string; processed_at: Date },
  { event_id: string }
>(
  (db, value) =>
    db
      .insertInto("inbox")
      .values({
        consumer: value("consumer"),
        event_id: value("event_id"),
        processed_at: value("processed_at"),
      })
      .onConflict((oc) => oc.columns(["consumer", "event_id"]).doNothing())
      .returning("event_id"),
  { prepared: true },
);
