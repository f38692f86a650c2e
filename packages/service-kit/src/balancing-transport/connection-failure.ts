/**
 * Which failed calls say "this endpoint is unreachable" (skip it for a while), which of those
 * provably never reached a server (safe to send again elsewhere), and how a caller sees them.
 */
import { Code, ConnectError } from "@connectrpc/connect";

/**
 * Node error codes of a connection or stream that failed or died, rather than a server's
 * answer. connect-node turns the unknown ones into Internal (a session closed with an error
 * code, a stream reset with REFUSED_STREAM, INTERNAL_ERROR or PROTOCOL_ERROR, a request on a
 * session already gone) and a reset socket or destroyed stream into Aborted.
 */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ETIMEDOUT",
  "EPIPE",
  "ERR_STREAM_DESTROYED",
  "ERR_HTTP2_GOAWAY_SESSION",
  "ERR_HTTP2_SESSION_ERROR",
  "ERR_HTTP2_ERROR",
  "ERR_HTTP2_INVALID_SESSION",
  "ERR_HTTP2_INVALID_STREAM",
  "ERR_HTTP2_STREAM_CANCEL",
  "ERR_HTTP2_STREAM_ERROR",
]);

/**
 * connect-node's own errors for a stream or session that went away, which carry no Node
 * error: a stream closed under the call (CANCEL when the session or socket closed, as when a
 * replica stops) and a session found dead when a request was about to use it.
 */
const CONNECT_NODE_MESSAGES = [
  /^http\/2 stream closed with error code /,
  /^expected open session, but it is /,
];

/** The `code` of every error in the cause chain (connect-node keeps the Node error as cause). */
function nodeCodes(error: unknown): string[] {
  const codes: string[] = [];
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") codes.push(code);
    current = current.cause;
  }
  return codes;
}

/**
 * One of connect-node's messages, raised by the client itself: an error decoded from a
 * server's answer always carries the response's headers as metadata, so a server passing
 * such a message on from its own downstream call does not count.
 */
function isConnectNodeConnectionError(error: unknown): boolean {
  return (
    error instanceof ConnectError &&
    error.cause === undefined &&
    [...error.metadata.keys()].length === 0 &&
    CONNECT_NODE_MESSAGES.some((message) => message.test(error.rawMessage))
  );
}

/** The call failed because the connection to the endpoint failed (not a server's answer). */
export function isConnectionFailure(error: unknown): boolean {
  // An error the server sent has no Node error beneath it; only the client's side adds one.
  return isConnectNodeConnectionError(error) || nodeCodes(error).some((code) => CONNECTION_CODES.has(code));
}

/**
 * The connection was refused before a single byte of the request went out, so no server
 * saw the call: the only failure a non-idempotent call may be sent again after. A reset or
 * GOAWAY may come after the server started executing, so it never qualifies.
 */
export function neverReachedServer(error: unknown): boolean {
  return nodeCodes(error).includes("ECONNREFUSED");
}

/**
 * A connection failure as the caller should see it: Unavailable, the retryable error (a
 * write that may have executed is retried with its Idempotency-Key), whatever code
 * connect-node chose (Internal or Aborted, which the gateway would answer 500 or 409). The
 * original stays as `cause`; any other error is returned as it is.
 */
export function connectionFailureAsUnavailable(error: unknown): unknown {
  if (!isConnectionFailure(error)) return error;
  return new ConnectError(
    "the connection to the service replica failed",
    Code.Unavailable,
    undefined,
    undefined,
    error,
  );
}
