import {
  create,
  fromBinary,
  toBinary,
  type DescMessage,
  type Message,
  type MessageInitShape,
} from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { eventsByType, type EventSpec } from "@petri/contracts";
import { EventEnvelopeSchema, type EventEnvelope } from "@petri/contracts/common";
import { newId } from "@petri/service-kit";

export type { EventEnvelope } from "@petri/contracts/common";

/** "evt_" + 26 base32 characters: 48 bits of millisecond time (sortable) + 80 random bits. */
export function newEventId(now: Date = new Date()): string {
  return newId("evt", now);
}

export interface EnvelopeMeta {
  aggregateId: string;
  aggregateVersion: number;
  occurredAt: Date;
  traceparent?: string;
  /** Defaults to a fresh newEventId(). */
  id?: string;
}

/** Builds the envelope of one event: the payload is serialised in binary protobuf into `data`. */
export function buildEnvelope<Desc extends DescMessage>(
  spec: EventSpec<Desc>,
  payload: MessageInitShape<Desc>,
  meta: EnvelopeMeta,
): EventEnvelope {
  if (!Number.isSafeInteger(meta.aggregateVersion) || meta.aggregateVersion < 0) {
    throw new Error(`aggregateVersion must be a non-negative integer, got ${meta.aggregateVersion}`);
  }
  const message = create(spec.schema, payload);
  return create(EventEnvelopeSchema, {
    id: meta.id ?? newEventId(meta.occurredAt),
    type: spec.schema.typeName,
    source: spec.source,
    subject: spec.subject,
    occurredAt: timestampFromDate(meta.occurredAt),
    aggregateId: meta.aggregateId,
    aggregateVersion: BigInt(meta.aggregateVersion),
    traceparent: meta.traceparent ?? "",
    data: toBinary(spec.schema, message),
  });
}

export function encodeEnvelope(envelope: EventEnvelope): Uint8Array {
  return toBinary(EventEnvelopeSchema, envelope);
}

export function decodeEnvelope(bytes: Uint8Array): EventEnvelope {
  return fromBinary(EventEnvelopeSchema, bytes);
}

/** The aggregate version as a JS number (the generated field is an int64). */
export function envelopeVersion(envelope: EventEnvelope): number {
  return Number(envelope.aggregateVersion);
}

export function envelopeOccurredAt(envelope: EventEnvelope): Date | undefined {
  return envelope.occurredAt ? timestampDate(envelope.occurredAt) : undefined;
}

export class UnknownEventTypeError extends Error {
  constructor(readonly type: string) {
    super(`unknown event type "${type}" (not in the @petri/contracts event catalogue)`);
    this.name = "UnknownEventTypeError";
  }
}

/** Decodes envelope.data with the schema the catalogue names for envelope.type. */
export function decodePayload(envelope: EventEnvelope): Message {
  const spec = eventsByType.get(envelope.type);
  if (!spec) throw new UnknownEventTypeError(envelope.type);
  return fromBinary(spec.schema, envelope.data);
}
