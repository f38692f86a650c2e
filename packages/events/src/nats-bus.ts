import {
  DeliverPolicy,
  JetStreamApiCodes,
  jetstream,
  jetstreamManager,
  type ConsumerInfo,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from "@nats-io/jetstream";
import { connect, headers as natsHeaders, type MsgHdrs, type NatsConnection } from "@nats-io/transport-node";
import type { EventEnvelope } from "@petri/contracts/common";
import type {
  BroadcastSpec,
  ConsumeOptions,
  ConsumerSpec,
  Delivery,
  ConsumerLag,
  EventBus,
  PublishAck,
  StreamSpec,
} from "./bus.js";
import { decodeEnvelope, encodeEnvelope } from "./envelope.js";
import { type TextMapSetter, context, propagation } from "@opentelemetry/api";
import { errorMessage, Semaphore, type Logger } from "./internal/async.js";
import { NatsDelivery } from "./nats-delivery.js";
import { BusNamespace } from "./nats-namespace.js";
import { isApiError, JetStreamProvisioner } from "./nats-provisioning.js";

export interface NatsEventBusOptions {
  /** e.g. "nats://127.0.0.1:4222" or a list of them. */
  servers: string | string[];
  /** Connection name shown by the server (the service name). */
  name: string;
  logger: Logger;
  /** How long publish() waits for the PubAck (default 5 s). */
  publishTimeoutMs?: number;
  /** Stream dedupe window (default 2 min, the JetStream default). */
  duplicateWindowMs?: number;
  /** Pause between attempts to re-establish a failed consume (default 1 s). */
  resubscribeDelayMs?: number;
  /** Reconnect wait between attempts (default 500 ms); reconnects go on forever. */
  reconnectTimeWaitMs?: number;
  /**
   * Keeps one deployment's streams, subjects and durable consumers apart from another's on a
   * shared nats-server: "ci_42" turns stream PETRI_IDENTITY into CI_42_PETRI_IDENTITY, subject
   * petri.identity.x into ci_42.petri.identity.x and durable d into ci_42_d. Empty: no prefix.
   */
  namespace?: string;
  /**
   * Copies of every stream (and so of its durable consumers, which follow the stream) kept by
   * a JetStream cluster: 3 on a three-node cluster, 1 (the default) on a single server. An
   * existing stream with fewer copies is raised to this; one with more is left as it is.
   */
  streamReplicas?: number;
}

const natsHeadersSetter: TextMapSetter<MsgHdrs> = { set: (headers, key, value) => headers.set(key, value) };

/**
 * EventBus over NATS JetStream (cluster mode). Streams and durable pull consumers are
 * provisioned idempotently; publishes carry Nats-Msg-Id = envelope.id, so the server drops
 * re-publishes inside the stream's duplicate window.
 */
export class NatsEventBus implements EventBus {
  readonly kind = "nats" as const;
  private isConnected = true;
  private closing = false;
  private readonly namespace: BusNamespace;
  private readonly provision: JetStreamProvisioner;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly jsm: JetStreamManager,
    private readonly js: JetStreamClient,
    private readonly opts: NatsEventBusOptions,
  ) {
    this.namespace = new BusNamespace(opts.namespace ?? "");
    this.provision = new JetStreamProvisioner(jsm, opts.logger, opts, () => this.closing);
    void this.watchStatus();
  }

  static async connect(opts: NatsEventBusOptions): Promise<NatsEventBus> {
    new BusNamespace(opts.namespace ?? ""); // reject a bad namespace before connecting
    const nc = await connect({
      servers: opts.servers,
      name: opts.name,
      maxReconnectAttempts: -1,
      reconnectTimeWait: opts.reconnectTimeWaitMs ?? 500,
      waitOnFirstConnect: false,
      // Without it every request (each publish) creates an Error and a timer's Error up front,
      // only so that a timeout's stack would show the caller (D320); our logs name the
      // stream, subject and event instead.
      noAsyncTraces: true,
    });
    const jsm = await jetstreamManager(nc);
    const js = jetstream(nc, { timeout: opts.publishTimeoutMs ?? 5_000 });
    opts.logger.info({ server: nc.getServer(), name: opts.name }, "nats connected");
    return new NatsEventBus(nc, jsm, js, opts);
  }

  private async watchStatus(): Promise<void> {
    try {
      await this.followStatus();
    } catch (err) {
      this.opts.logger.warn({ err: errorMessage(err) }, "nats status stream ended");
    }
  }

  private async followStatus(): Promise<void> {
    for await (const status of this.nc.status()) {
      switch (status.type) {
        case "disconnect":
          this.isConnected = false;
          this.opts.logger.warn({ server: status.server }, "nats disconnected");
          break;
        case "reconnect":
          this.isConnected = true;
          this.opts.logger.info({ server: status.server }, "nats reconnected");
          break;
        case "close":
          this.isConnected = false;
          break;
        default:
          break;
      }
    }
  }

  connected(): boolean {
    return this.isConnected && !this.nc.isClosed();
  }

  async ensureStream(logical: StreamSpec): Promise<void> {
    const spec = this.namespace.stream(logical);
    return this.provision.whenClusterSettled(`stream ${spec.name}`, () => this.provision.stream(spec));
  }

  async publish(envelope: EventEnvelope): Promise<PublishAck> {
    const h = natsHeaders();
    // W3C trace context in the headers, for any reader of the stream: the active (send) span's,
    // else the one the envelope carries.
    propagation.inject(context.active(), h, natsHeadersSetter);
    if (!h.has("traceparent") && envelope.traceparent) h.set("traceparent", envelope.traceparent);
    h.set("Petri-Event-Type", envelope.type);
    const ack = await this.js.publish(this.namespace.subject(envelope.subject), encodeEnvelope(envelope), {
      msgID: envelope.id,
      headers: h,
    });
    return { stream: ack.stream, seq: ack.seq, duplicate: ack.duplicate };
  }

  /** Creates the durable pull consumer or brings its config in line; returns the server's view. */
  async ensureConsumer(logical: ConsumerSpec): Promise<ConsumerInfo> {
    const spec = this.namespace.consumer(logical);
    return this.provision.whenClusterSettled(`consumer ${spec.durable}`, () => this.provision.consumer(spec));
  }

  async consume(
    logical: ConsumerSpec,
    handler: (delivery: Delivery) => Promise<void>,
    options: ConsumeOptions,
  ): Promise<void> {
    const spec = this.namespace.consumer(logical);
    const { signal } = options;
    const slots = new Semaphore(options.concurrency);
    const log = this.opts.logger;
    const retryDelay = this.opts.resubscribeDelayMs ?? 1_000;
    let provisioned = false;

    const dispatch = (m: JsMsg): void => this.dispatch(spec, m, handler, slots);

    while (!signal.aborted) {
      let messages: ConsumerMessages | undefined;
      const onAbort = () => void messages?.close();
      try {
        if (!provisioned) {
          await this.provision.stream(spec.stream);
          await this.provision.consumer(spec);
          provisioned = true;
        }
        const consumer = await this.js.consumers.get(spec.stream.name, spec.durable);
        // Pulls ask for `concurrency` messages once that many were taken, not one per message
        // taken (nats.js re-pulls at 75% of max_messages): a pull request is a NATS write,
        // each a loopback round trip to the server (D331). At most twice `concurrency` wait.
        const slotsWanted = Math.max(options.concurrency, 1);
        messages = await consumer.consume({
          max_messages: 2 * slotsWanted,
          threshold_messages: slotsWanted,
        });
        signal.addEventListener("abort", onAbort, { once: true });
        if (signal.aborted) void messages.close();
        await pump(messages, slots, signal, dispatch);
      } catch (err) {
        if (signal.aborted || this.closing) break;
        log.warn(
          { err: errorMessage(err), stream: spec.stream.name, durable: spec.durable },
          "consume interrupted; re-establishing",
        );
        if (
          isApiError(err, JetStreamApiCodes.ConsumerNotFound) ||
          isApiError(err, JetStreamApiCodes.StreamNotFound)
        ) {
          provisioned = false;
        }
      } finally {
        signal.removeEventListener("abort", onAbort);
        await messages?.close().catch(() => undefined);
      }
      if (signal.aborted || this.closing) break;
      await sleep(retryDelay, signal);
    }
    await slots.idle();
  }

  /** Starts the handler on one message (a slot is held for it); an undecodable one is terminated. */
  private dispatch(
    spec: ConsumerSpec,
    m: JsMsg,
    handler: (delivery: Delivery) => Promise<void>,
    slots: Semaphore,
  ): void {
    const log = this.opts.logger;
    let envelope: EventEnvelope;
    try {
      envelope = decodeEnvelope(m.data);
    } catch (err) {
      // Not an envelope at all: nobody can ever handle it.
      log.error(
        { err, stream: spec.stream.name, seq: m.seq, subject: m.subject },
        "undecodable message terminated",
      );
      m.term("undecodable envelope");
      slots.release();
      return;
    }
    const delivery = new NatsDelivery(m, envelope);
    handler(delivery)
      .catch((err: unknown) => {
        // Handlers are expected to settle the delivery themselves; an escape means the
        // delivery stays unacknowledged and the server redelivers it after ack_wait.
        log.error({ err, eventId: envelope.id, durable: spec.durable }, "event handler failed");
      })
      .finally(() => slots.release());
  }

  /**
   * An ordered consumer (ephemeral, this process only, server-side cleaned up) delivering
   * messages published from now on; the client library recreates it after a gap or a lost
   * heartbeat. If it fails altogether it is re-established after resubscribeDelayMs, from
   * "new" again: what was published in between is not replayed (see EventBus.subscribe).
   */
  async subscribe(
    logical: BroadcastSpec,
    handler: (envelope: EventEnvelope) => void,
    signal: AbortSignal,
  ): Promise<void> {
    const stream = this.namespace.stream(logical.stream);
    const filter = this.namespace.subject(logical.filterSubject);
    const log = this.opts.logger;
    // Identity subscribes at start-up: a cluster still electing must delay that start, not fail it.
    await this.ensureStream(logical.stream);
    const open = async (): Promise<ConsumerMessages> => {
      const consumer = await this.js.consumers.get(stream.name, {
        filter_subjects: filter,
        deliver_policy: DeliverPolicy.New,
      });
      return consumer.consume();
    };
    let messages: ConsumerMessages | undefined = await this.provision.whenClusterSettled(
      `broadcast ${filter}`,
      open,
    );
    const retryDelay = this.opts.resubscribeDelayMs ?? 1_000;
    const onAbort = () => void messages?.close();
    signal.addEventListener("abort", onAbort, { once: true });
    void (async () => {
      while (!signal.aborted && !this.closing) {
        try {
          messages ??= await open();
          for await (const m of messages) {
            let envelope: EventEnvelope;
            try {
              envelope = decodeEnvelope(m.data);
            } catch (err) {
              log.error({ err, subject: m.subject }, "undecodable broadcast message skipped");
              continue;
            }
            try {
              handler(envelope);
            } catch (err) {
              log.error({ err, eventId: envelope.id }, "broadcast handler failed");
            }
          }
        } catch (err) {
          if (signal.aborted || this.closing) break;
          log.warn({ err: errorMessage(err), stream: stream.name, filter }, "broadcast interrupted");
        }
        await messages?.close().catch(() => undefined);
        messages = undefined;
        if (signal.aborted || this.closing) break;
        await sleep(retryDelay, signal);
      }
      signal.removeEventListener("abort", onAbort);
    })();
  }

  /** JetStream's own count: num_pending (after the filter) and num_ack_pending. */
  async consumerLag(stream: StreamSpec, durable: string): Promise<ConsumerLag> {
    const spec = this.namespace.consumer({ stream, durable, filterSubject: ">" });
    const info = await this.jsm.consumers.info(spec.stream.name, spec.durable);
    return { pending: info.num_pending, unacknowledged: info.num_ack_pending };
  }

  /** Stream state for tests and diagnostics. */
  async streamInfo(name: string): Promise<{ messages: number; lastSeq: number }> {
    const info = await this.jsm.streams.info(this.namespace.streamName(name));
    return { messages: info.state.messages, lastSeq: info.state.last_seq };
  }

  async close(): Promise<void> {
    if (this.nc.isClosed()) return;
    this.closing = true;
    await this.nc.drain().catch(async (err: unknown) => {
      this.opts.logger.warn({ err: errorMessage(err) }, "nats drain failed; closing");
      await this.nc.close();
    });
  }
}

/** Hands each message to `dispatch` once a slot is free; after a stop, what still arrives is nak'ed. */
async function pump(
  messages: ConsumerMessages,
  slots: Semaphore,
  signal: AbortSignal,
  dispatch: (m: JsMsg) => void,
): Promise<void> {
  for await (const m of messages) {
    if (signal.aborted) {
      m.nak();
      continue;
    }
    const waited = slots.available === 0;
    await slots.acquire();
    if (signal.aborted) {
      slots.release();
      m.nak();
      continue;
    }
    // It may have sat in the client buffer while all slots were busy.
    if (waited) m.working();
    dispatch(m);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
