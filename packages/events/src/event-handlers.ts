/**
 * How a service declares what it does with events: subscriptions to a stream, each with
 * handlers by payload type, written with `on()`. The ConsumerRunner runs them.
 */
import type { DescMessage, Message, MessageShape } from "@bufbuild/protobuf";
import type { EventSpec } from "@petri/contracts";
import type { EventEnvelope } from "@petri/contracts/common";
import type { OnCommit } from "@petri/db";
import type { Kysely } from "kysely";
import type { StreamSpec } from "./bus.js";

export interface EventContext<P extends Message = Message> {
  /** The transaction that also records the inbox row: write the effect through it. */
  trx: Kysely<any>;
  envelope: EventEnvelope;
  payload: P;
  /**
   * Runs a callback once this transaction committed (never if it rolls back): wake the
   * worker that will act on the rows the handler wrote here, not before they are visible.
   */
  afterCommit: OnCommit;
}

export type EventHandler<P extends Message = Message> = ((ctx: EventContext<P>) => Promise<void>) & {
  /**
   * False for an event the handler would leave without effect, decided from the event alone
   * (no database): it is then only acknowledged, like a type without a handler.
   */
  readonly appliesTo?: (payload: P) => boolean;
  /** See OnOptions.idempotent. */
  readonly idempotent?: boolean;
};

/** One stream the runner consumes, through one filter, with handlers by payload type. */
export interface Subscription {
  stream: StreamSpec;
  /**
   * One subject filter per stream (wildcards allowed). An event whose type has no handler
   * here is only acknowledged: nothing is written for it, not even the inbox row.
   */
  filterSubject: string;
  /** Keyed by the payload's full proto type name (envelope.type); see `on()`. */
  handlers: Record<string, EventHandler>;
}

export type ConsumerSubscription = Subscription;

export interface OnOptions<P extends Message> {
  /** Events this predicate rejects are acknowledged without a transaction (see EventHandler.appliesTo). */
  appliesTo?: (payload: P) => boolean;
  /**
   * The handler's effect leaves the same state however often and in whatever order events
   * arrive (a read model's upsert guarded by the aggregate's version). The runner then records
   * no inbox row and opens no transaction: `trx` is the service's database (a handler needing
   * more than one statement opens its own transaction, D365), and `afterCommit` callbacks run
   * once the handler returned (D329).
   */
  idempotent?: boolean;
}

/** A typed handler entry: `handlers: { ...on(events.identity.accountRegistered, async ({ payload }) => ...) }`. */
export function on<Desc extends DescMessage>(
  spec: EventSpec<Desc>,
  handler: (ctx: EventContext<MessageShape<Desc>>) => Promise<void>,
  options: OnOptions<MessageShape<Desc>> = {},
): Record<string, EventHandler> {
  const entry = Object.assign(handler, {
    ...(options.appliesTo && { appliesTo: options.appliesTo }),
    ...(options.idempotent && { idempotent: true }),
  });
  return { [spec.schema.typeName]: entry as unknown as EventHandler };
}
