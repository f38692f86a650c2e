import type { DescMessage, MessageInitShape } from "@bufbuild/protobuf";
import type { EventSpec } from "@petri/contracts";
import type { EventEnvelope } from "@petri/contracts/common";
import type { Kysely } from "kysely";
import { buildEnvelope, encodeEnvelope } from "./envelope.js";
import { FixedQueryVariants, type MessagingTables, QueryNeutralPlugin } from "@petri/db";

export interface RecordEventMeta {
  aggregateId: string;
  /** The aggregate's version after the change, so consumers can drop stale events. */
  aggregateVersion: number;
  occurredAt: Date;
  traceparent?: string;
}

/** One event ready for the outbox, built by `eventFor` and written by `recordEvents`. */
export interface PendingEvent {
  envelope: EventEnvelope;
  aggregateVersion: number;
  traceparent: string | null;
}

/** Builds the envelope of one event, to record it with others of the same change. */
export function eventFor<Desc extends DescMessage>(
  spec: EventSpec<Desc>,
  payload: MessageInitShape<Desc>,
  meta: RecordEventMeta,
): PendingEvent {
  return {
    envelope: buildEnvelope(spec, payload, meta),
    aggregateVersion: meta.aggregateVersion,
    traceparent: meta.traceparent ?? null,
  };
}

/**
 * Carried by a transaction (as a Kysely plugin, so it survives `withSchema` and other derived
 * instances) whose opener wants the events recorded in it: `recordEvents` hands them to
 * `onRecorded` after writing them to the outbox, held until `holdUntil()` when it gives a time
 * (see CommittedEvents). It changes no query.
 */
class EventsRecordedListener extends QueryNeutralPlugin {
  constructor(
    readonly onRecorded: (envelopes: readonly EventEnvelope[]) => void,
    readonly holdUntil: () => Date | undefined,
  ) {
    super();
  }
}

/**
 * `trx` that calls `onRecorded` with the events whenever `recordEvents` writes to the outbox
 * through it (for instance: collect them to hand to the outbox relay after the commit). Rows
 * written while `holdUntil` gives a time are held for that caller until then.
 */
export function listenForRecordedEvents<T extends Kysely<any>>(
  trx: T,
  onRecorded: (envelopes: readonly EventEnvelope[]) => void,
  holdUntil: () => Date | undefined = () => undefined,
): T {
  return trx.withPlugin(new EventsRecordedListener(onRecorded, holdUntil)) as T;
}

/** Changes record one to a few events: each count up to this is one statement compiled once. */
const MOST_FIXED_OUTBOX_ROWS = 8;
const OUTBOX_COLUMNS = [
  "id",
  "subject",
  "type",
  "aggregate_id",
  "aggregate_version",
  "envelope",
  "traceparent",
  "lease_until",
] as const;
type OutboxRow = Record<(typeof OUTBOX_COLUMNS)[number], unknown>;

/** `count` rows of placeholders named column_index, bound from `outboxValues`. */
const insertOutboxRows = new FixedQueryVariants<MessagingTables, number, Record<string, unknown>, unknown>(
  (count) => String(count),
  (db, value, count) =>
    db
      .insertInto("outbox")
      .values(
        Array.from({ length: count }, (_, index) =>
          Object.fromEntries(OUTBOX_COLUMNS.map((column) => [column, value(`${column}_${index}`)])),
        ) as never,
      ),
  { prepared: true },
);

function outboxValues(rows: readonly OutboxRow[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  rows.forEach((row, index) => {
    for (const column of OUTBOX_COLUMNS) values[`${column}_${index}`] = row[column];
  });
  return values;
}

/**
 * Writes events to the service's outbox inside the caller's transaction, so they exist if
 * and only if the state change commits, in one statement and in the given order (the
 * relay publishes in outbox order). With `recordEvent`, the only way a use case emits
 * events; the OutboxRelay publishes them after the commit.
 *
 * @param trx a schema-bound Kysely transaction (`db.transaction().execute(trx => ...)`)
 */
export async function recordEvents(
  trx: Kysely<any>,
  events: readonly PendingEvent[],
): Promise<EventEnvelope[]> {
  if (!trx.isTransaction) {
    const subjects = events.map((e) => e.envelope.subject).join(", ");
    throw new Error(`recordEvents(${subjects}) must run inside the transaction that makes the change`);
  }
  if (events.length === 0) return [];
  const listeners = trx
    .getExecutor()
    .plugins.filter((plugin): plugin is EventsRecordedListener => plugin instanceof EventsRecordedListener);
  let leaseUntil: Date | null = null;
  for (const listener of listeners) leaseUntil ??= listener.holdUntil() ?? null;
  const rows = events.map(({ envelope, aggregateVersion, traceparent }) => ({
    id: envelope.id,
    subject: envelope.subject,
    type: envelope.type,
    aggregate_id: envelope.aggregateId,
    aggregate_version: aggregateVersion,
    envelope: encodeEnvelope(envelope),
    traceparent,
    lease_until: leaseUntil,
  }));
  const db = trx as Kysely<MessagingTables>;
  if (rows.length <= MOST_FIXED_OUTBOX_ROWS)
    await insertOutboxRows.execute(db, rows.length, outboxValues(rows));
  else await db.insertInto("outbox").values(rows).execute();
  const envelopes = events.map((e) => e.envelope);
  for (const listener of listeners) listener.onRecorded(envelopes);
  return envelopes;
}

/** Writes one event to the outbox in the caller's transaction (see `recordEvents`). */
export async function recordEvent<Desc extends DescMessage>(
  trx: Kysely<any>,
  spec: EventSpec<Desc>,
  payload: MessageInitShape<Desc>,
  meta: RecordEventMeta,
): Promise<EventEnvelope> {
  const [envelope] = await recordEvents(trx, [eventFor(spec, payload, meta)]);
  return envelope!;
}
