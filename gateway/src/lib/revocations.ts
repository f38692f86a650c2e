/**
 * The revocation state of this gateway process: which credentials no longer stand for their
 * account although they verify (a signed token that has not expired, a cached API-key answer).
 *
 *   - account -> credentials epoch: identity raises it on every role or tier change (the
 *     operator role taken back included) and on a password change. An access token whose
 *     "cep" claim is lower, and a cached API-key answer looked up under a lower epoch, are
 *     refused.
 *   - revoked token ids (jti) -> their expiry (POST /auth/token/revoke).
 *   - revoked API keys are passed on to the API-key cache, which drops their answers.
 *
 * Kept current without a call per request: the gateway holds one IdentityService
 * .WatchRevocations stream open (identity relays its CredentialsRevoked and AccessTokenRevoked
 * events to every watcher), so a revocation reaches every gateway process as soon as
 * identity's outbox relay publishes it. Behind that, the whole state is loaded
 * (ListRevocations) before the first credential is checked, after the watch is established
 * (so nothing falls in between), whenever the watch had to be re-established, and every
 * `refreshIntervalMs` (30 s) as a safety net. A state older than `maxStaleMs` (5 min,
 * identity unreachable all along) fails closed (503).
 *
 * Entries are dropped once no token they could refuse is alive: an epoch `tokenTtl` after it
 * was raised (every older token has expired by then), a jti at its expiry.
 */
import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import type { IdentityService, WatchRevocationsResponse } from "@petri/contracts/identity";
import { type Clock, type Logger, UnavailableError } from "@petri/service-kit";
import { asGateway } from "./clients.js";

export const DEFAULT_REVOCATION_REFRESH_MS = 30_000;
export const DEFAULT_REVOCATION_MAX_STALE_MS = 300_000;
/** Pause before a watch that ended is opened again. */
const REWATCH_DELAY_MS = 1_000;

export interface RevocationStateOptions {
  identity: Client<typeof IdentityService>;
  clock: Clock;
  logger: Logger;
  /** Hold a WatchRevocations stream open (default true; false: only the periodic load). */
  watch?: boolean;
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
  private watchAbort: AbortController | undefined;
  private closed = false;
  private lastAttemptAt = Number.NEGATIVE_INFINITY;
  private readonly apiKeyListeners = new Set<(apiKeyId: string) => void>();
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
    const watching = this.subscribed !== undefined || this.options.watch === false;
    if (age < this.refreshIntervalMs && (watching || now - this.lastAttemptAt < REWATCH_DELAY_MS)) return;
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

  /** Applies one message of the watch (the empty first one changes nothing). */
  apply(update: WatchRevocationsResponse): void {
    const { revocation } = update;
    if (revocation.case === "epoch") {
      this.raiseEpoch(revocation.value.accountId, Number(revocation.value.epoch), revocation.value.changedAt);
    } else if (revocation.case === "token" && revocation.value.expiresAt) {
      this.revokeToken(revocation.value.jti, timestampDate(revocation.value.expiresAt).getTime());
    } else if (revocation.case === "apiKeyId") {
      for (const listener of this.apiKeyListeners) listener(revocation.value);
    }
  }

  /** Calls `listener` with the id of every API key revoked anywhere (to drop a cached answer). */
  onApiKeyRevoked(listener: (apiKeyId: string) => void): void {
    this.apiKeyListeners.add(listener);
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
    this.lastAttemptAt = this.options.clock.now().getTime();
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

  /** Stops the watch (tests, and a gateway that shuts down). */
  close(): void {
    this.closed = true;
    this.watchAbort?.abort();
  }

  private async subscribe(): Promise<void> {
    if (this.options.watch === false || this.closed) return;
    this.subscribed ??= this.openWatch().catch((error: unknown) => {
      this.subscribed = undefined; // tried again at the next load
      throw error;
    });
    await this.subscribed;
  }

  /** Resolves once identity confirmed the watch (its empty first message). */
  private openWatch(): Promise<void> {
    const abort = new AbortController();
    this.watchAbort = abort;
    const { timeoutMs: _noDeadline, ...system } = asGateway();
    const stream = this.options.identity.watchRevocations({}, { ...system, signal: abort.signal });
    return new Promise<void>((resolve, reject) => {
      let established = false;
      void (async () => {
        try {
          for await (const update of stream) {
            if (!established) {
              established = true;
              resolve();
            }
            this.apply(update);
          }
        } catch (error) {
          if (!established) return reject(error);
          if (!abort.signal.aborted) this.options.logger.warn({ err: error }, "revocation watch ended");
        }
        if (!established) return reject(new Error("the revocation watch ended before it was established"));
        this.subscribed = undefined;
        if (abort.signal.aborted || this.closed) return;
        // Whatever was revoked while no watch was open comes with the next load, which
        // opens a new watch first.
        const timer = setTimeout(() => {
          this.refresh().catch((error: unknown) =>
            this.options.logger.warn({ err: error }, "revocation state reload failed; will retry"),
          );
        }, REWATCH_DELAY_MS);
        timer.unref();
      })();
    });
  }

  private prune(): void {
    const now = this.options.clock.now().getTime();
    for (const [accountId, entry] of this.epochs) if (entry.until <= now) this.epochs.delete(accountId);
    for (const [jti, expiresAt] of this.tokens) if (expiresAt <= now) this.tokens.delete(jti);
  }
}
