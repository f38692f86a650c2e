/**
 * The HTTP side of the literature provider: JSON GETs with undici under a per-request
 * deadline (connect, head and body together), a response-size cap, a small connection pool
 * per host, a User-Agent naming a contact (the etiquette Crossref and Europe PMC ask for),
 * and bounded retries of 429 and 502/503/504 that honour Retry-After up to a cap.
 * Redirects are not followed (undici's request() never does); a 3xx is an answer like a 4xx.
 */
import { Agent, request } from "undici";
import {
  DEFAULT_MAX_RETRY_DELAY_MS,
  type Sleep,
  abortReason,
  abortableSleep,
  delayBeforeRetry,
  isResponseTooLarge,
  readCappedText,
  retryAfterMs,
} from "@petri/llm";

/** Error bodies are only drained so the connection can be reused, never read. */
const ERROR_BODY_DRAIN_BYTES = 16 * 1024;
const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);
const TIMEOUT_CODES = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

export type HttpProblem =
  /** An answer other than 2xx (after the retries, for the retryable ones); `status` says which. */
  "http_status" | "timeout" | "unreachable" | "too_large" | "not_json";

export type JsonResult = { ok: true; json: unknown } | { ok: false; problem: HttpProblem; status?: number };

export interface LiteratureHttpOptions {
  timeoutMs: number;
  userAgent: string;
  maxRetries: number;
  maxRetryDelayMs?: number;
  connectionsPerHost: number;
  sleep?: Sleep;
}

type Attempt = JsonResult & { serverDelayMs?: number };

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

export class LiteratureHttp {
  private readonly agent: Agent;
  private readonly sleep: Sleep;

  constructor(private readonly options: LiteratureHttpOptions) {
    this.sleep = options.sleep ?? abortableSleep;
    this.agent = new Agent({
      connections: options.connectionsPerHost,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connect: { timeout: options.timeoutMs },
    });
  }

  /** GET `url` as JSON. Throws only the caller's abort reason; everything else is a result. */
  async getJson(url: URL, maxBytes: number, signal: AbortSignal): Promise<JsonResult> {
    for (let retry = 0; ; retry++) {
      const result = await this.attempt(url, maxBytes, signal);
      const retryable =
        (!result.ok && result.problem === "unreachable") ||
        (!result.ok && result.status !== undefined && RETRYABLE_STATUSES.has(result.status));
      if (!retryable || retry >= this.options.maxRetries) return withoutDelay(result);
      const delay = delayBeforeRetry(
        retry,
        result.serverDelayMs,
        this.options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS,
      );
      if (delay === undefined) return withoutDelay(result);
      await this.sleep(delay, signal);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private async attempt(url: URL, maxBytes: number, signal: AbortSignal): Promise<Attempt> {
    if (signal.aborted) throw abortReason(signal);
    const deadline = AbortSignal.timeout(this.options.timeoutMs);
    const combined = AbortSignal.any([signal, deadline]);
    try {
      const response = await request(url, {
        dispatcher: this.agent,
        method: "GET",
        headers: { accept: "application/json", "user-agent": this.options.userAgent },
        signal: combined,
      });
      if (response.statusCode < 200 || response.statusCode > 299) {
        await response.body.dump({ limit: ERROR_BODY_DRAIN_BYTES, signal: combined }).catch(() => undefined);
        const serverDelayMs = retryAfterMs({
          retryAfter: firstHeader(response.headers["retry-after"]),
          retryAfterMs: firstHeader(response.headers["retry-after-ms"]),
        });
        return {
          ok: false,
          problem: "http_status",
          status: response.statusCode,
          ...(serverDelayMs === undefined ? {} : { serverDelayMs }),
        };
      }
      const text = await readCappedText(response.body, maxBytes);
      try {
        return { ok: true, json: JSON.parse(text) as unknown };
      } catch {
        return { ok: false, problem: "not_json" };
      }
    } catch (error) {
      if (signal.aborted) throw abortReason(signal);
      if (deadline.aborted || TIMEOUT_CODES.has(errorCode(error) ?? ""))
        return { ok: false, problem: "timeout" };
      if (isResponseTooLarge(error)) return { ok: false, problem: "too_large" };
      return { ok: false, problem: "unreachable" };
    }
  }
}

function withoutDelay(result: Attempt): JsonResult {
  const { serverDelayMs: _delay, ...rest } = result;
  return rest as JsonResult;
}
