/**
 * The revocation state of this gateway process: which credentials no longer stand for their
 * account although they verify (a signed token that has not expired, a cached API-key answer).
 *
 *   - account -> credentials epoch: identity raises it on every role or tier change (the
 *     operator role taken back included) and on a password change. An access token whose
 *     "cep" claim is lower, and a cached API-key answer looked up under a lower epoch, are
 *     refused.
 *   - revoked token ids (jti) -> their expiry (POST /auth/token/revoke).
 *
 * Kept current without a call per request: identity publishes CredentialsRevoked and
 * AccessTokenRevoked, and every gateway process subscribes to them (a per-process
 * subscription, so each replica sees each message; see EventBus.subscribe). Behind that, the
 * whole state is loaded from identity (ListRevocations) before the first credential is
 * checked, and again every `refreshIntervalMs` (30 s) as a safety net for a lost message. A
 * state older than `maxStaleMs` (5 min, identity unreachable all along) fails closed (503).
 *
 * Entries are dropped once no token they could refuse is alive: an epoch `tokenTtl` after it
 * was raised (every older token has expired by then), a jti at its expiry.
 */
import { fromBinary } from "@bufbuild/protobuf";
import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import { events } from "@petri/contracts";
import type { EventEnvelope } from "@petri/contracts/common";
import {
  type IdentityService,
  AccessTokenRevokedSchema,
  CredentialsRevokedSchema,
} from "@petri/contracts/identity";
import { type Clock, type Logger, UnavailableError } from "@petri/service-kit";
import { asGateway } from "./clients.js";

/** Hands every revocation event to `handler`; resolves once the subscription is established. */
export type RevocationEventSource = (handler: (envelope: EventEnvelope) => void) => Promise<void>;

/** The subjects a gateway subscribes to (identity's stream). */
export const REVOCATION_SUBJECTS = [
  events.identity.credentialsRevoked.subject,
  events.identity.accessTokenRevoked.subject,
] as const;

export const DEFAULT_REVOCATION_REFRESH_MS = 30_000;
export const DEFAULT_REVOCATION_MAX_STALE_MS = 300_000;

export interface RevocationStateOptions {
  identity: Client<typeof IdentityService>;
  clock: Clock;
  logger: Logger;
  /** The event subscription (none: only the periodic load keeps the state current). */
  events?: RevocationEventSource | undefined;
  /** Age after which the state is loaded again in the background. Default 30 s. */
  refreshIntervalMs?: number;
  /** Age after which a state that cannot be reloaded refuses to answer (503). Default 5 min. */
  maxStaleMs?: number;
  /** The longest access-token lifetime until identity states it. Default 1 h. */
  tokenTtlSeconds?: number;
}

interface EpochEntry {
  epoch: number;
  /** Epoch ms after which no token issued under a lower epoch is alive. */
  until: number;
}

export class RevocationState {
  private readonly epochs = new Map<string, EpochEntry>();
  /** jti -> its expiry (epoch ms). */
  private readonly tokens = new Map<string, number>();
  private loadedAt: number | undefined;
  private inflight: Promise<void> | undefined;
  private subscribed: Promise<void> | undefined;
  private tokenTtlMs: number;
  private readonly refreshIntervalMs: number;
  private readonly maxStaleMs: number;

  constructor(private readonly options: RevocationStateOptions) {
    this.refreshIntervalMs = options.refreshIntervalMs ?? DEFAULT_REVOCATION_REFRESH_MS;
    this.maxStaleMs = options.maxStaleMs ?? DEFAULT_REVOCATION_MAX_STALE_MS;
    this.tokenTtlMs = (options.tokenTtlSeconds ?? 3_600) * 1000;
  }

  /**
   * Resolves once the state may be consulted: the subscription is up and a load succeeded
   * within maxStaleMs. A stale (but not too stale) state is reloaded in the background.
   */
  async ready(): Promise<void> {
    const now = this.options.clock.now().getTime();
    const age = this.loadedAt === undefined ? Number.POSITIVE_INFINITY : now - this.loadedAt;
    if (age < this.refreshIntervalMs) return;
    if (age < this.maxStaleMs) {
      void this.refresh().catch((error: unknown) =>
        this.options.logger.warn({ err: error }, "revocation state refresh failed; will retry"),
      );
      return;
    }
    try {
      await this.refresh();
    } catch (error) {
      this.options.logger.error({ err: error }, "revocation state cannot be loaded");
      throw new UnavailableError("credentials cannot be checked right now; try again shortly");
    }
  }

  /** The account's credentials epoch as far as this gateway knows (0: never raised lately). */
  epochOf(accountId: string): number {
    const entry = this.epochs.get(accountId);
    if (!entry) return 0;
    if (entry.until <= this.options.clock.now().getTime()) {
      this.epochs.delete(accountId);
      return 0;
    }
    return entry.epoch;
  }

  isRevoked(jti: string): boolean {
    const expiresAt = this.tokens.get(jti);
    if (expiresAt === undefined) return false;
    if (expiresAt <= this.options.clock.now().getTime()) {
      this.tokens.delete(jti);
      return false;
    }
    return true;
  }

  /** Applies one event of identity's stream; anything else is ignored. */
  handle(envelope: EventEnvelope): void {
    try {
      if (envelope.type === CredentialsRevokedSchema.typeName) {
        const { epoch } = fromBinary(CredentialsRevokedSchema, envelope.data);
        if (epoch) this.raiseEpoch(epoch.accountId, Number(epoch.epoch), epoch.changedAt);
      } else if (envelope.type === AccessTokenRevokedSchema.typeName) {
        const { token } = fromBinary(AccessTokenRevokedSchema, envelope.data);
        if (token?.expiresAt) this.revokeToken(token.jti, timestampDate(token.expiresAt).getTime());
      }
    } catch (error) {
      this.options.logger.error({ err: error, event_id: envelope.id }, "unusable revocation event");
    }
  }

  raiseEpoch(accountId: string, epoch: number, changedAt: Timestamp | undefined): void {
    if (accountId === "") return;
    const raisedAt = changedAt ? timestampDate(changedAt).getTime() : this.options.clock.now().getTime();
    const known = this.epochs.get(accountId);
    if (known && known.epoch >= epoch) return;
    this.epochs.set(accountId, { epoch, until: raisedAt + this.tokenTtlMs });
  }

  revokeToken(jti: string, expiresAt: number): void {
    if (jti === "" || expiresAt <= this.options.clock.now().getTime()) return;
    this.tokens.set(jti, expiresAt);
  }

  /** One load at a time; concurrent callers share it. */
  private refresh(): Promise<void> {
    this.inflight ??= this.load().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async load(): Promise<void> {
    // Subscribed before the load, so nothing raised between the two is missed.
    await this.subscribe();
    const startedAt = this.options.clock.now().getTime();
    const snapshot = await this.options.identity.listRevocations({}, asGateway());
    if (snapshot.accessTokenTtlSeconds > 0n) this.tokenTtlMs = Number(snapshot.accessTokenTtlSeconds) * 1000;
    for (const entry of snapshot.epochs)
      this.raiseEpoch(entry.accountId, Number(entry.epoch), entry.changedAt);
    for (const token of snapshot.tokens) {
      if (token.expiresAt) this.revokeToken(token.jti, timestampDate(token.expiresAt).getTime());
    }
    this.prune();
    this.loadedAt = startedAt;
  }

  private async subscribe(): Promise<void> {
    const source = this.options.events;
    if (!source) return;
    this.subscribed ??= source((envelope) => this.handle(envelope)).catch((error: unknown) => {
      this.subscribed = undefined; // tried again at the next load
      throw error;
    });
    await this.subscribed;
  }

  private prune(): void {
    const now = this.options.clock.now().getTime();
    for (const [accountId, entry] of this.epochs) if (entry.until <= now) this.epochs.delete(accountId);
    for (const [jti, expiresAt] of this.tokens) if (expiresAt <= now) this.tokens.delete(jti);
  }
}
