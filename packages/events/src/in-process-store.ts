/**
 * The tables of the in-process event bus (schema `petri_bus`): streams, their messages, the
 * durable consumers' cursors and their deliveries awaiting an ack. Every method is one short
 * statement or transaction, so that with PGlite (one connection) nothing is held while a
 * handler runs. What the rows mean is the JetStream model the bus mimics (see InProcessEventBus).
 */
import { isUniqueViolation, type Database } from "@petri/db";
import type { Kysely } from "kysely";
import type { ConsumerLag, ConsumerSpec } from "./bus.js";
import { BUS_SCHEMA, type BusTables } from "./in-process-schema.js";
import {
  ackStatement,
  appendStatement,
  claimGroupStatement,
  type ClaimGroupRow,
} from "./in-process-statements.js";
import { columnsOf, GroupedCalls } from "./internal/grouped-calls.js";
import { earlier } from "./internal/times.js";
import { filterPattern } from "./subjects.js";

/** One claimed delivery: the message's sequence and how often it has been delivered, this time included. */
export interface Claimed {
  seq: number;
  deliveryCount: number;
}

/** A claimed delivery with the message's stored envelope. */
export interface ClaimedMessage extends Claimed {
  envelope: Uint8Array;
}

/**
 * What a claim took, and when the consumer's earliest pending delivery falls due after it
 * (undefined: none pending), so the loop knows when to look again without asking.
 */
export interface Claim {
  claimed: ClaimedMessage[];
  nextDueAt: Date | undefined;
  /**
   * False when the claim took deliveries and was not asked for the next due time: nextDueAt is
   * then only this claim's deadline, to be taken with what the loop already knew.
   */
  nextDueKnown: boolean;
}

export type Appended = { seq: number; duplicate: boolean } | { noStream: true };

/** One consumer's claim as it waits for its group. */
interface ClaimAsked {
  stream: string;
  durable: string;
  pattern: string;
  max: number;
  now: Date;
  deadline: Date;
  askNextDue: boolean;
}

/** Lock order: a group claims its consumers sorted, so two groups never wait on each other in a cycle. */
function byConsumer(a: ClaimAsked, b: ClaimAsked): number {
  if (a.stream !== b.stream) return a.stream < b.stream ? -1 : 1;
  if (a.durable !== b.durable) return a.durable < b.durable ? -1 : 1;
  return 0;
}

/** A claim's rows (see claimGroupStatement) as what it took and when to look again. */
function toClaim(rows: ClaimGroupRow[], deadline: Date): Claim {
  const claimed: ClaimedMessage[] = [];
  for (const row of rows) {
    if (row.seq === null || row.envelope === null) continue;
    claimed.push({ seq: Number(row.seq), deliveryCount: Number(row.delivery_count), envelope: row.envelope });
  }
  const later = rows[0]?.next_due ? new Date(rows[0].next_due) : undefined;
  const nextDueAt = claimed.length > 0 ? earlier(later, deadline) : later;
  return { claimed, nextDueAt, nextDueKnown: rows[0]?.next_due_known ?? true };
}

export class InProcessBusStore {
  private readonly db: Kysely<BusTables>;
  /**
   * Every consumer's acknowledgements, grouped (D362): under load a statement deletes the
   * deliveries of every handler that finished while the previous one ran.
   */
  private readonly acks: GroupedCalls<{ stream: string; durable: string; seq: number }>;
  /** Every consumer's claims, grouped the same way: a publish wakes each consumer of its stream at once. */
  private readonly claims: GroupedCalls<ClaimAsked, Claim>;

  constructor(database: Database) {
    this.db = database.forSchema<BusTables>(BUS_SCHEMA);
    this.acks = new GroupedCalls<{ stream: string; durable: string; seq: number }>(async (items) => {
      await ackStatement.execute(this.db, columnsOf(items, ["stream", "durable", "seq"]));
      return items.map(() => undefined);
    });
    this.claims = new GroupedCalls<ClaimAsked, Claim>((asked) => this.claimGroup(asked));
  }

  /** Every stream with its subject filters. */
  async streams(): Promise<Map<string, string[]>> {
    const rows = await this.db.selectFrom("streams").select(["name", "subjects"]).execute();
    return new Map(rows.map((row) => [row.name, JSON.parse(row.subjects) as string[]]));
  }

  /** Creates the stream, or gives an existing one these subjects. */
  async saveStream(name: string, subjects: string[], now: Date): Promise<void> {
    const text = JSON.stringify(subjects);
    await this.db
      .insertInto("streams")
      .values({ name, subjects: text, last_seq: 0, created_at: now })
      .onConflict((oc) => oc.column("name").doUpdateSet({ subjects: text }))
      .execute();
  }

  /**
   * Appends a message under the stream's next sequence, unless the stream already holds one
   * with this id (then that one's sequence, duplicate). One statement when new (D360).
   */
  async append(
    stream: string,
    message: { subject: string; id: string; bytes: Uint8Array },
    publishedAt: Date,
  ): Promise<Appended> {
    try {
      const rows = await appendStatement.execute(this.db, {
        stream,
        subject: message.subject,
        id: message.id,
        envelope: message.bytes,
        publishedAt,
      });
      if (rows.length === 0) return { noStream: true };
      return { seq: Number(rows[0]!.seq), duplicate: false };
    } catch (err) {
      // The statement failed whole, so the sequence did not move.
      if (!isUniqueViolation(err, "messages_msg_id_uq")) throw err;
      const existing = await this.db
        .selectFrom("messages")
        .select("seq")
        .where("stream", "=", stream)
        .where("msg_id", "=", message.id)
        .executeTakeFirst();
      if (!existing) throw err; // purged in between: the publisher's retry appends it anew
      return { seq: Number(existing.seq), duplicate: true };
    }
  }

  /** Creates the durable consumer (cursor at the stream's start), or updates its filter and ack wait. */
  async saveConsumer(spec: ConsumerSpec, ackWaitMs: number, now: Date): Promise<void> {
    await this.db
      .insertInto("consumers")
      .values({
        stream: spec.stream.name,
        durable: spec.durable,
        filter_subject: spec.filterSubject,
        ack_wait_ms: ackWaitMs,
        cursor: 0,
        created_at: now,
      })
      .onConflict((oc) =>
        oc
          .columns(["stream", "durable"])
          .doUpdateSet({ filter_subject: spec.filterSubject, ack_wait_ms: ackWaitMs }),
      )
      .execute();
  }

  /**
   * Claims up to `max` deliveries for the consumer, in stream order, with their envelopes: due
   * redeliveries first, then new matching messages past its cursor. Each is leased until
   * now + ackWaitMs. Also says when the earliest pending delivery falls due after this claim,
   * if asked or if it claimed nothing (otherwise only its own deadline, see Claim.nextDueKnown).
   * With the bus on PostgreSQL every round trip is work for both sides, and a claim is made for
   * every event and every consumer: one statement (D337), and since D362 one statement for
   * every consumer whose claim arrived while the previous group's ran (petri_bus.claim, called
   * once per consumer; see claimGroupStatement).
   *
   * The consumer's row lock serialises claims of one durable; the due rows are locked too, as
   * that part may run before the consumer's lock is taken. Messages that do not match the filter
   * are passed over for good: when fewer than the room matched, the cursor moves to the stream's
   * last sequence in this statement's snapshot (every message up to it is visible in it: an
   * append bumps the sequence and inserts the message in one transaction).
   */
  async claim(
    spec: ConsumerSpec,
    ackWaitMs: number,
    max: number,
    now: Date,
    askNextDue: boolean,
  ): Promise<Claim> {
    return this.claims.call({
      askNextDue,
      stream: spec.stream.name,
      durable: spec.durable,
      pattern: filterPattern(spec.filterSubject),
      max,
      now,
      deadline: new Date(now.getTime() + ackWaitMs),
    });
  }

  /** The claims of one group in one statement, each answered with its own rows. */
  private async claimGroup(asked: ClaimAsked[]): Promise<Claim[]> {
    const order = asked.map((_, index) => index).sort((a, b) => byConsumer(asked[a]!, asked[b]!));
    const sorted = order.map((index) => asked[index]!);
    const rows = await claimGroupStatement.execute(
      this.db,
      columnsOf(sorted, ["stream", "durable", "pattern", "max", "now", "deadline", "askNextDue"]),
    );
    const rowsOf = sorted.map((): ClaimGroupRow[] => []);
    for (const row of rows) rowsOf[Number(row.position) - 1]!.push(row);
    const claims = new Array<Claim>(asked.length);
    order.forEach((index, position) => {
      claims[index] = toClaim(rowsOf[position]!, asked[index]!.deadline);
    });
    return claims;
  }

  /**
   * Settles a pending delivery. An acknowledged delivery leaves no row: below the cursor and
   * without a row = done (a late ack of an earlier delivery also counts, as on JetStream); a
   * terminated one stays, termed, so that it is never redelivered.
   */
  async settle(spec: ConsumerSpec, seq: number, how: "ack" | "term"): Promise<void> {
    if (how === "term") {
      await this.db
        .updateTable("deliveries")
        .set({ state: "termed" })
        .where("stream", "=", spec.stream.name)
        .where("durable", "=", spec.durable)
        .where("seq", "=", seq)
        .where("state", "=", "pending")
        .execute();
      return;
    }
    await this.acks.call({ stream: spec.stream.name, durable: spec.durable, seq });
  }

  /** Moves the redelivery time of this delivery (only while it is still this delivery). */
  async reschedule(spec: ConsumerSpec, claimed: Claimed, at: Date): Promise<void> {
    await this.db
      .updateTable("deliveries")
      .set({ next_delivery_at: at })
      .where("stream", "=", spec.stream.name)
      .where("durable", "=", spec.durable)
      .where("seq", "=", claimed.seq)
      .where("state", "=", "pending")
      .where("delivery_count", "=", claimed.deliveryCount)
      .execute();
  }

  /**
   * Messages past the consumer's cursor (its filter is applied when they are claimed, so a
   * filtered consumer's count includes messages it will skip) and its deliveries awaiting an ack.
   */
  async consumerLag(stream: string, durable: string): Promise<ConsumerLag> {
    const row = await this.db
      .selectFrom("consumers")
      .innerJoin("streams", "streams.name", "consumers.stream")
      .select((eb) => [
        "consumers.cursor",
        "streams.last_seq",
        eb
          .selectFrom("deliveries")
          .select((d) => d.fn.countAll().as("n"))
          .whereRef("deliveries.stream", "=", "consumers.stream")
          .whereRef("deliveries.durable", "=", "consumers.durable")
          .where("deliveries.state", "=", "pending")
          .as("unacknowledged"),
      ])
      .where("consumers.stream", "=", stream)
      .where("consumers.durable", "=", durable)
      .executeTakeFirst();
    if (!row) return { pending: 0, unacknowledged: 0 };
    return {
      pending: Math.max(0, Number(row.last_seq) - Number(row.cursor)),
      unacknowledged: Number(row.unacknowledged ?? 0),
    };
  }

  /** Stream state for tests and diagnostics (same shape as NatsEventBus.streamInfo). */
  async streamInfo(name: string): Promise<{ messages: number; lastSeq: number }> {
    const row = await this.db
      .selectFrom("streams")
      .select("last_seq")
      .where("name", "=", name)
      .executeTakeFirstOrThrow();
    const count = await this.db
      .selectFrom("messages")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("stream", "=", name)
      .executeTakeFirstOrThrow();
    return { messages: Number(count.n), lastSeq: Number(row.last_seq) };
  }

  /**
   * Deletes the stream's messages published before `cutoff` that every durable consumer has
   * moved past (acknowledged or terminated), then the termed deliveries of messages gone.
   * Returns how many messages were deleted.
   */
  async purgeDelivered(stream: string, cutoff: Date): Promise<number> {
    const floor = await this.db
      .selectFrom("consumers")
      .select((eb) => eb.fn.min("cursor").as("cursor"))
      .where("stream", "=", stream)
      .executeTakeFirst();
    const maxSeq = floor?.cursor === null || floor?.cursor === undefined ? undefined : Number(floor.cursor);
    let query = this.db
      .deleteFrom("messages")
      .where("stream", "=", stream)
      .where("published_at", "<", cutoff)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("deliveries")
              .select("deliveries.seq")
              .whereRef("deliveries.stream", "=", "messages.stream")
              .whereRef("deliveries.seq", "=", "messages.seq")
              .where("deliveries.state", "=", "pending"),
          ),
        ),
      );
    if (maxSeq !== undefined) query = query.where("seq", "<=", maxSeq);
    const result = await query.executeTakeFirst();
    await this.db
      .deleteFrom("deliveries")
      .where("stream", "=", stream)
      .where("state", "=", "termed")
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("messages")
              .select("messages.seq")
              .whereRef("messages.stream", "=", "deliveries.stream")
              .whereRef("messages.seq", "=", "deliveries.seq"),
          ),
        ),
      )
      .execute();
    return Number(result.numDeletedRows);
  }
}
