import type { EventEnvelope } from "@petri/contracts/common";

export interface StreamSpec {
  /** e.g. "PETRI_IDENTITY" */
  name: string;
  /** e.g. ["petri.identity.>"] */
  subjects: string[];
}

export interface PublishAck {
  stream: string;
  seq: number;
  /** True when the bus already held a message with this envelope id (server-side dedupe). */
  duplicate: boolean;
}

export interface ConsumerSpec {
  stream: StreamSpec;
  /** Durable consumer name; several processes using the same name share the work. */
  durable: string;
  /** One subject filter (nats-server 2.9 has no multi-filter consumers); wildcards allowed. */
  filterSubject: string;
  /** How long a delivery may stay unacknowledged before the bus redelivers it. */
  ackWaitMs?: number;
}

/** A per-process subscription: every process that subscribes sees every matching message. */
export interface BroadcastSpec {
  stream: StreamSpec;
  /** One subject filter; wildcards allowed. */
  filterSubject: string;
}

/** One delivery of one message to one durable consumer. */
export interface Delivery {
  readonly envelope: EventEnvelope;
  /** 1 on the first delivery, 2 on the first redelivery, ... */
  readonly deliveryCount: number;
  /** Acknowledge; resolves once the bus confirmed the ack. */
  ack(): Promise<void>;
  /** Ask for redelivery after delayMs (0 = as soon as possible). */
  nak(delayMs?: number): Promise<void>;
  /** Never redeliver. */
  term(reason?: string): Promise<void>;
  /** Extend the ack deadline while a slow handler works. */
  working(): Promise<void>;
}

export interface ConsumerLag {
  pending: number;
  unacknowledged: number;
}

export interface ConsumeOptions {
  /** At most this many handlers run at once. */
  concurrency: number;
  /** Aborting stops pulling; consume() resolves once in-flight handlers finished. */
  signal: AbortSignal;
}

/**
 * The EventBus port. Adapters: NATS JetStream (cluster) and in-process (standalone).
 * Both give at-least-once delivery to durable consumers, dedupe publishes by envelope id,
 * redeliver unacknowledged messages and keep messages across restarts of the process.
 */
export interface EventBus {
  readonly kind: "nats" | "in-process";
  /** Creates or updates the stream; idempotent. */
  ensureStream(spec: StreamSpec): Promise<void>;
  /** Resolves only after the bus durably accepted the message (Nats-Msg-Id = envelope.id). */
  publish(envelope: EventEnvelope): Promise<PublishAck>;
  /** Runs until options.signal is aborted; provisions the durable consumer idempotently. */
  consume(
    spec: ConsumerSpec,
    handler: (delivery: Delivery) => Promise<void>,
    options: ConsumeOptions,
  ): Promise<void>;
  /**
   * Hands this process every message matching spec.filterSubject published from now on, with
   * no acknowledgement and no shared state: unlike consume(), each subscriber sees every
   * message. Messages published while the subscription is down are not replayed, so it suits
   * caches that have a slower safety net (e.g. the gateway's revocation state). Resolves once
   * the subscription is established; it ends when signal is aborted.
   */
  subscribe(
    spec: BroadcastSpec,
    handler: (envelope: EventEnvelope) => void,
    signal: AbortSignal,
  ): Promise<void>;
  /**
   * For metrics: messages of a durable consumer not delivered yet (`pending`) and delivered
   * but not acknowledged (`unacknowledged`). Optional: a bus without it reports no lag.
   */
  consumerLag?(stream: StreamSpec, durable: string): Promise<ConsumerLag>;
  /** For readiness: is the adapter connected to its backing store? */
  connected(): boolean;
  /** Drains and closes connections. */
  close(): Promise<void>;
}
