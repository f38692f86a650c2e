import type { DescMessage, MessageInitShape } from "@bufbuild/protobuf";
import type { EventSpec } from "@petri/contracts";
import type { EventEnvelope } from "@petri/contracts/common";
import type { Kysely } from "kysely";
import { buildEnvelope, encodeEnvelope } from "./envelope.js";
import type { MessagingTables } from "@petri/db";

export interface RecordEventMeta {
  aggregateId: string;
  /** The aggregate's version after the change, so consumers can drop stale events. */
  aggregateVersion: number;
  occurredAt: Date;
  traceparent?: string;
}

/**
 * Writes one event to the service's outbox inside the caller's transaction, so the event
 * exists if and only if the state change commits. This is the only way a use case emits
 * an event; the OutboxRelay publishes it after the commit.
 *
 * @param trx a schema-bound Kysely transaction (`db.transaction().execute(trx => ...)`)
 */
export async function recordEvent<Desc extends DescMessage>(
  trx: Kysely<any>,
  spec: EventSpec<Desc>,
  payload: MessageInitShape<Desc>,
  meta: RecordEventMeta,
): Promise<EventEnvelope> {
  if (!trx.isTransaction) {
    throw new Error(`recordEvent(${spec.subject}) must run inside the transaction that makes the change`);
  }
  const envelope = buildEnvelope(spec, payload, meta);
  await (trx as Kysely<MessagingTables>)
    .insertInto("outbox")
    .values({
      id: envelope.id,
      subject: envelope.subject,
      type: envelope.type,
      aggregate_id: envelope.aggregateId,
      aggregate_version: meta.aggregateVersion,
      envelope: encodeEnvelope(envelope),
      traceparent: meta.traceparent ?? null,
    })
    .execute();
  return envelope;
}
