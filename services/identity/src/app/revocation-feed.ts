import { EventEmitter, on } from "node:events";
import { create, fromBinary } from "@bufbuild/protobuf";
import { events, streamFor } from "@petri/contracts";
import type { EventEnvelope } from "@petri/contracts/common";
import {
  AccessTokenRevokedSchema,
  ApiKeyRevokedSchema,
  CredentialsRevokedSchema,
  type WatchRevocationsResponse,
  WatchRevocationsResponseSchema,
} from "@petri/contracts/identity";
import type { EventBus } from "@petri/events";
import { type Logger, UnavailableError } from "@petri/service-kit";

const REVOCATION = "revocation";

/**
 * Relays identity's own CredentialsRevoked, AccessTokenRevoked and ApiKeyRevoked events to every watching
 * gateway (WatchRevocations). Each identity replica subscribes per process (EventBus.subscribe),
 * so whichever replica a gateway is connected to sees every revocation, whichever replica
 * made it. A message the bus loses is caught by the gateways' periodic ListRevocations.
 */
export class RevocationFeed {
  private readonly emitter = new EventEmitter();
  private lifetime = new AbortController();

  constructor(private readonly deps: { bus: EventBus; logger: Logger }) {
    this.emitter.setMaxListeners(0); // one listener per connected gateway
  }

  async start(): Promise<void> {
    this.lifetime = new AbortController();
    const stream = streamFor("identity");
    const { credentialsRevoked, accessTokenRevoked, apiKeyRevoked } = events.identity;
    for (const spec of [credentialsRevoked, accessTokenRevoked, apiKeyRevoked]) {
      await this.deps.bus.subscribe(
        { stream, filterSubject: spec.subject },
        (envelope) => this.relay(envelope),
        this.lifetime.signal,
      );
    }
  }

  /** Ends the subscriptions and every watch (the gateways reconnect to another replica). */
  stop(): void {
    this.lifetime.abort();
  }

  /** The watch of one gateway: an empty first message, then every revocation until `signal`. */
  async *watch(signal: AbortSignal): AsyncGenerator<WatchRevocationsResponse> {
    const ended = AbortSignal.any([signal, this.lifetime.signal]);
    // A replica shutting down: the gateway should watch another one.
    if (this.lifetime.signal.aborted) throw new UnavailableError("identity is stopping");
    if (ended.aborted) return;
    // Listening before the first message is sent, so nothing published after it is missed.
    const updates = on(this.emitter, REVOCATION, { signal: ended });
    yield create(WatchRevocationsResponseSchema, {});
    try {
      for await (const [update] of updates) yield update as WatchRevocationsResponse;
    } catch (error) {
      if (!ended.aborted) throw error;
    }
  }

  private relay(envelope: EventEnvelope): void {
    let update: WatchRevocationsResponse | undefined;
    if (envelope.type === CredentialsRevokedSchema.typeName) {
      const { epoch } = fromBinary(CredentialsRevokedSchema, envelope.data);
      if (epoch)
        update = create(WatchRevocationsResponseSchema, { revocation: { case: "epoch", value: epoch } });
    } else if (envelope.type === AccessTokenRevokedSchema.typeName) {
      const { token } = fromBinary(AccessTokenRevokedSchema, envelope.data);
      if (token)
        update = create(WatchRevocationsResponseSchema, { revocation: { case: "token", value: token } });
    } else if (envelope.type === ApiKeyRevokedSchema.typeName) {
      const { apiKeyId } = fromBinary(ApiKeyRevokedSchema, envelope.data);
      if (apiKeyId)
        update = create(WatchRevocationsResponseSchema, {
          revocation: { case: "apiKeyId", value: apiKeyId },
        });
    }
    if (update) this.emitter.emit(REVOCATION, update);
    else this.deps.logger.debug({ event_id: envelope.id }, "not a revocation; ignored");
  }
}
