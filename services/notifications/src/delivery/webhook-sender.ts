/**
 * The HTTP side of a delivery attempt: one POST over HTTPS with undici, under the SSRF policy
 * at connect time.
 *
 * - The connection's address comes from a lookup hook that resolves the hostname, checks
 *   every answer (resolution.ts) and hands the socket the checked address: the address that
 *   was checked is the one connected to, so a DNS answer that changes between a check and
 *   the connection (rebinding) never reaches a socket. IP-literal URLs are checked before
 *   the request (Node does not look literals up).
 * - Redirects are never followed (undici's request() does not follow them; a 3xx is a failed
 *   attempt).
 * - One hard deadline of 5 seconds covers connecting, the TLS handshake, sending and the
 *   response head; the body is read to at most 4 KiB within the same deadline and discarded.
 * - Each receiver (host and port) gets at most a few connections of this process's pool, so
 *   a slow receiver cannot hold the sockets others need.
 *
 * Latency and the deadline are measured on the real clock: they describe the network, not
 * the business schedule (which runs on the injected Clock).
 */
import type { LookupAddress, LookupOptions } from "node:dns";
import { performance } from "node:perf_hooks";
import { Agent, request } from "undici";
import { type AttemptOutcome, CONNECTION_FAILED, outcomeOfStatus } from "../domain/attempt-outcome.js";
import { type AddressAllowlist, type Resolver, checkResolution, checkWebhookUrl } from "@petri/service-kit";

export const ATTEMPT_TIMEOUT_MS = 5_000;
export const RESPONSE_BODY_CAP_BYTES = 4 * 1024;
export const CONNECTIONS_PER_RECEIVER = 4;

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: Uint8Array;
}

export interface SendResult {
  outcome: AttemptOutcome;
  latencyMs: number;
  /** For the service log only: the precise cause of a failure (never shown to a requester). */
  cause?: string;
}

/** Sends one attempt; never throws for anything the receiver or the network does. */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<SendResult>;
  close(): Promise<void>;
}

/** A connect-time refusal of the resolved addresses (its message is for logs only). */
class RefusedAddressError extends Error {
  constructor(hostname: string, category: string) {
    super(`addresses of ${hostname} refused (${category})`);
    this.name = "RefusedAddressError";
  }
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/** The lookup hook handed to every socket: resolve, check every answer, connect to the checked one. */
export function guardedLookup(resolver: Resolver, allowlist: AddressAllowlist) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolver(hostname).then(
      (answers) => {
        const verdict = checkResolution(answers, allowlist);
        if (!verdict.allowed) {
          callback(new RefusedAddressError(hostname, verdict.category), "");
          return;
        }
        const { address, family } = verdict.pinned;
        if (options.all) callback(null, [{ address, family }]);
        else callback(null, address, family);
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), ""),
    );
  };
}

function causeOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const nested = (error as Error & { cause?: unknown }).cause;
  return nested instanceof Error ? `${error.message}: ${nested.message}` : error.message;
}

export class UndiciWebhookSender implements WebhookSender {
  private readonly agent: Agent;

  constructor(
    private readonly options: {
      resolver: Resolver;
      allowlist: AddressAllowlist;
      /** Extra trusted CA certificates (tests: the loopback receiver's); default: the system's. */
      ca?: string | string[];
      timeoutMs?: number;
      connectionsPerReceiver?: number;
    },
  ) {
    const timeout = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
    this.agent = new Agent({
      connections: options.connectionsPerReceiver ?? CONNECTIONS_PER_RECEIVER,
      pipelining: 1,
      headersTimeout: timeout,
      bodyTimeout: timeout,
      keepAliveTimeout: 4_000,
      connect: {
        timeout,
        lookup: guardedLookup(options.resolver, options.allowlist),
        ...(options.ca ? { ca: options.ca } : {}),
      },
    });
  }

  async send(input: WebhookRequest): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.max(0, Math.round(performance.now() - started));
    const target = checkWebhookUrl(input.url, this.options.allowlist);
    if (!target.ok)
      return { outcome: CONNECTION_FAILED, latencyMs: 0, cause: `URL refused: ${target.reason}` };
    const deadline = AbortSignal.timeout(this.options.timeoutMs ?? ATTEMPT_TIMEOUT_MS);
    let statusCode: number;
    try {
      const response = await request(target.url, {
        dispatcher: this.agent,
        method: "POST",
        headers: input.headers,
        body: Buffer.from(input.body),
        signal: deadline,
      });
      statusCode = response.statusCode;
      const latencyMs = elapsed();
      // The body is not needed: read a little (so a small answer frees the connection for
      // reuse), within the same deadline, and drop the rest with the connection.
      await response.body.dump({ limit: RESPONSE_BODY_CAP_BYTES, signal: deadline }).catch(() => undefined);
      return { outcome: outcomeOfStatus(statusCode), latencyMs };
    } catch (error) {
      return { outcome: CONNECTION_FAILED, latencyMs: elapsed(), cause: causeOf(error) };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
