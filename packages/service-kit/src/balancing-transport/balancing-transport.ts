/**
 * A Connect Transport that spreads calls over every endpoint of a service, one call at a time.
 *
 * Connect over HTTP/2 multiplexes every call on one connection, so a Service that balances
 * connections (a Kubernetes ClusterIP) would send all of one client's calls to one replica.
 * This transport holds one child transport (one HTTP/2 session) per endpoint and picks an
 * endpoint for each call: the one with the fewest calls in flight, ties taken in turn (so an
 * idle or evenly loaded set is plain round robin, and a replica that stalls, e.g. in a long
 * garbage collection, stops receiving new calls while its backlog lasts).
 *
 * Endpoints come from the URL setting (endpoints.ts), resolved again every
 * `resolveIntervalMs` and soon after a connection failure; an endpoint that disappears is
 * closed once its calls have finished. An endpoint whose connection fails is skipped for
 * `skipMs`, and a unary call is sent once more, to another endpoint, only when its connection
 * was refused: then no server saw it. Anything else may have executed and is not repeated.
 * Streams are never repeated (their input may have been read already).
 *
 * A call whose connection failed rejects with Unavailable (the original error as its cause),
 * whatever code connect-node gave it: the replica went away, which a client may retry.
 */
import {
  Code,
  ConnectError,
  type ContextValues,
  type StreamResponse,
  type Transport,
  type UnaryResponse,
} from "@connectrpc/connect";
import type { DescMessage, DescMethodStreaming, DescMethodUnary, MessageInitShape } from "@bufbuild/protobuf";
import type { Logger } from "../logger.js";
import {
  connectionFailureAsUnavailable,
  isConnectionFailure,
  neverReachedServer,
} from "./connection-failure.js";
import { type LookupAll, endpointsOf, systemLookupAll } from "./endpoints.js";

type CallHeader = Parameters<Transport["unary"]>[3];

/** A transport to one endpoint, and how to release its connection. */
export interface ChildTransport {
  readonly transport: Transport;
  close(): void;
}

export interface BalancingTransportOptions {
  /** The URL setting, already split: URLs with a host name stand for all its addresses. */
  urls: readonly string[];
  /** Opens the transport to one endpoint (a base URL such as "http://10.0.0.5:8080"). */
  connect: (baseUrl: string) => ChildTransport;
  lookup?: LookupAll;
  /** How often host names are resolved again. Default 5 s. */
  resolveIntervalMs?: number;
  /** How long an endpoint whose connection failed gets no calls. Default 2 s. */
  skipMs?: number;
  /** Milliseconds since some fixed point (tests pass a fake clock). */
  now?: () => number;
  logger?: Pick<Logger, "warn">;
}

interface Endpoint {
  readonly baseUrl: string;
  readonly child: ChildTransport;
  inFlight: number;
  /** No calls before this time (a connection failure), unless every endpoint is skipped. */
  skipUntil: number;
  /** Gone from the resolution: closed when its last call finishes. */
  removed: boolean;
}

export class BalancingTransport implements Transport {
  private endpoints: Endpoint[] = [];
  /** The latest successful resolution of each URL (a failed lookup keeps the previous one). */
  private readonly resolved = new Map<string, string[]>();
  private cursor = 0;
  private refreshing: Promise<void> | undefined;
  private readonly initial: Promise<void>;
  private nextFailureRefreshAt = 0;
  private closed = false;
  private readonly timer: NodeJS.Timeout;
  private readonly lookup: LookupAll;
  private readonly skipMs: number;
  private readonly now: () => number;

  constructor(private readonly options: BalancingTransportOptions) {
    if (options.urls.length === 0) throw new Error("BalancingTransport needs at least one URL");
    this.lookup = options.lookup ?? systemLookupAll;
    this.skipMs = options.skipMs ?? 2_000;
    this.now = options.now ?? Date.now;
    this.initial = this.refresh();
    this.timer = setInterval(() => void this.refresh(), options.resolveIntervalMs ?? 5_000);
    this.timer.unref();
  }

  /** The endpoints calls may currently go to (base URLs), for logs and tests. */
  get endpointUrls(): string[] {
    return this.endpoints.map((endpoint) => endpoint.baseUrl);
  }

  /** Resolves the URLs again and adds or retires endpoints to match (one run at a time). */
  refresh(): Promise<void> {
    this.refreshing ??= this.resolveAndApply().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  /** Stops resolving and closes every connection (calls in flight fail). */
  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    for (const endpoint of this.endpoints) endpoint.child.close();
    this.endpoints = [];
  }

  async unary<I extends DescMessage, O extends DescMessage>(
    method: DescMethodUnary<I, O>,
    signal: AbortSignal | undefined,
    timeoutMs: number | undefined,
    header: CallHeader,
    input: MessageInitShape<I>,
    contextValues?: ContextValues,
  ): Promise<UnaryResponse<I, O>> {
    const startedAt = this.now();
    const first = this.pick() ?? (await this.pickAfterResolving());
    const send = (endpoint: Endpoint, timeout: number | undefined) =>
      this.tracked(endpoint, () =>
        endpoint.child.transport.unary(method, signal, timeout, header, input, contextValues),
      );
    try {
      return await send(first, timeoutMs);
    } catch (error) {
      const other = neverReachedServer(error) && !signal?.aborted ? this.pick(first) : undefined;
      if (!other) throw error;
      // The refused attempt took part of the caller's deadline.
      const left = timeoutMs === undefined ? undefined : Math.max(1, timeoutMs - (this.now() - startedAt));
      return send(other, left);
    }
  }

  async stream<I extends DescMessage, O extends DescMessage>(
    method: DescMethodStreaming<I, O>,
    signal: AbortSignal | undefined,
    timeoutMs: number | undefined,
    header: CallHeader,
    input: AsyncIterable<MessageInitShape<I>>,
    contextValues?: ContextValues,
  ): Promise<StreamResponse<I, O>> {
    const endpoint = this.pick() ?? (await this.pickAfterResolving());
    endpoint.inFlight += 1;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      this.callEnded(endpoint);
    };
    try {
      const response = await endpoint.child.transport.stream(
        method,
        signal,
        timeoutMs,
        header,
        input,
        contextValues,
      );
      return { ...response, message: this.trackMessages(endpoint, response.message, finish) };
    } catch (error) {
      this.noteFailure(endpoint, error);
      finish();
      throw connectionFailureAsUnavailable(error);
    }
  }

  /** The stream stays in flight until its last message is read, it fails, or it is abandoned. */
  private async *trackMessages<T>(endpoint: Endpoint, messages: AsyncIterable<T>, finish: () => void) {
    try {
      yield* messages;
    } catch (error) {
      this.noteFailure(endpoint, error);
      throw connectionFailureAsUnavailable(error);
    } finally {
      finish();
    }
  }

  private async tracked<T>(endpoint: Endpoint, call: () => Promise<T>): Promise<T> {
    endpoint.inFlight += 1;
    try {
      return await call();
    } catch (error) {
      this.noteFailure(endpoint, error);
      // Still a connection failure beneath, so the retry decision sees the refusal.
      throw connectionFailureAsUnavailable(error);
    } finally {
      this.callEnded(endpoint);
    }
  }

  /**
   * Before the first resolution has finished (or when it found nothing) there is nothing to
   * pick from yet: wait for it. Otherwise the pick and the in-flight count it feeds happen in
   * the same tick, so a burst of calls sees each other's counts.
   */
  private async pickAfterResolving(): Promise<Endpoint> {
    await (this.refreshing ?? this.initial);
    if (this.endpoints.length === 0) await this.refresh();
    const endpoint = this.pick();
    if (!endpoint) {
      throw new ConnectError(`no endpoint resolved for ${this.options.urls.join(", ")}`, Code.Unavailable);
    }
    return endpoint;
  }

  /**
   * The endpoint with the fewest calls in flight, scanning from a cursor that moves on every
   * call so ties rotate. Skipped endpoints only when nothing else is left (the one whose
   * skip ends first); `except` never (a retry goes elsewhere or nowhere).
   */
  private pick(except?: Endpoint): Endpoint | undefined {
    const endpoints = this.endpoints;
    const count = endpoints.length;
    if (count === 0) return undefined;
    const now = this.now();
    const start = this.cursor++ % count;
    if (this.cursor >= Number.MAX_SAFE_INTEGER) this.cursor = 0;
    let best: Endpoint | undefined;
    let bestSkipped: Endpoint | undefined;
    for (let i = 0; i < count; i += 1) {
      const endpoint = endpoints[(start + i) % count]!;
      if (endpoint === except) continue;
      if (endpoint.skipUntil > now) {
        if (!bestSkipped || endpoint.skipUntil < bestSkipped.skipUntil) bestSkipped = endpoint;
      } else if (!best || endpoint.inFlight < best.inFlight) {
        best = endpoint;
      }
    }
    return best ?? bestSkipped;
  }

  private noteFailure(endpoint: Endpoint, error: unknown): void {
    if (!isConnectionFailure(error)) return;
    const now = this.now();
    // Once per skip: an operator sees why a replica stopped getting calls for a while.
    if (endpoint.skipUntil <= now) {
      // The message only: a failed HTTP/2 call's error can hold the session and its socket in
      // its cause chain, far too much for a log line to walk.
      this.options.logger?.warn(
        {
          reason: error instanceof Error ? error.message : String(error),
          endpoint: endpoint.baseUrl,
          skip_ms: this.skipMs,
        },
        "service endpoint skipped after a connection failure",
      );
    }
    endpoint.skipUntil = now + this.skipMs;
    // The endpoint may be a pod that is gone: look again soon, but not once per failed call.
    if (now >= this.nextFailureRefreshAt) {
      this.nextFailureRefreshAt = now + this.skipMs;
      void this.refresh();
    }
  }

  private callEnded(endpoint: Endpoint): void {
    endpoint.inFlight -= 1;
    if (endpoint.removed && endpoint.inFlight === 0) endpoint.child.close();
  }

  private async resolveAndApply(): Promise<void> {
    for (const url of this.options.urls) {
      try {
        const endpoints = await endpointsOf(url, this.lookup);
        // No address at all (every pod gone or not ready): keep the last known ones, which
        // answer "refused" at worst, rather than failing every call for want of a target.
        if (endpoints.length > 0) this.resolved.set(url, endpoints);
      } catch (error) {
        this.options.logger?.warn({ err: error, url }, "could not resolve service endpoints");
      }
    }
    if (this.closed) return;
    const wanted = new Set([...this.resolved.values()].flat());
    const current = new Map(this.endpoints.map((endpoint) => [endpoint.baseUrl, endpoint]));
    for (const endpoint of this.endpoints) {
      if (wanted.has(endpoint.baseUrl)) continue;
      endpoint.removed = true;
      if (endpoint.inFlight === 0) endpoint.child.close();
    }
    this.endpoints = [...wanted].map(
      (baseUrl) =>
        current.get(baseUrl) ?? {
          baseUrl,
          child: this.options.connect(baseUrl),
          inFlight: 0,
          skipUntil: 0,
          removed: false,
        },
    );
  }
}
