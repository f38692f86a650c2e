/**
 * Waiting between attempts to an upstream service. Clients built on these retry a bounded
 * number of times; the waits honour the server's Retry-After but never exceed a cap, and every
 * wait ends early when the caller aborts.
 */

/** How long to wait before the first retry when the server gave no Retry-After. */
export const BASE_RETRY_DELAY_MS = 250;
/** The longest wait a client accepts before a retry (the server may ask for more). */
export const DEFAULT_MAX_RETRY_DELAY_MS = 5_000;

/** A wait between attempts; injectable so tests observe the requested waits without sleeping. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** The caller's reason for aborting, as the error to rethrow (what fetch does too). */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

export const abortableSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });

/**
 * Retry-After (RFC 9110: delay-seconds or an HTTP date) or the non-standard retry-after-ms,
 * in milliseconds; undefined when absent or unreadable.
 */
export function retryAfterMs(
  headers: { retryAfter?: string | null; retryAfterMs?: string | null },
  nowMs: number = Date.now(),
): number | undefined {
  const millis = headers.retryAfterMs?.trim();
  if (millis && /^\d+(\.\d+)?$/.test(millis)) return Math.ceil(Number(millis));
  const value = headers.retryAfter?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP date names its weekday and month; anything else ("-1", "soon") is unreadable.
  if (!/^[a-z]{3}, /i.test(value)) return undefined;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/**
 * The wait before retry number `retry` (0-based): the server's Retry-After when it gave one,
 * otherwise exponential backoff from BASE_RETRY_DELAY_MS; capped at `maxDelayMs`.
 * Returns undefined when the server asks for longer than the cap: retrying sooner than it
 * allows would only earn another refusal, so the caller gives up at once.
 */
export function delayBeforeRetry(retry: number, serverDelayMs: number | undefined, maxDelayMs: number) {
  if (serverDelayMs !== undefined) return serverDelayMs <= maxDelayMs ? serverDelayMs : undefined;
  return Math.min(BASE_RETRY_DELAY_MS * 2 ** retry, maxDelayMs);
}
