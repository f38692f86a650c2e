/**
 * Which failed calls say "this endpoint is unreachable" (skip it for a while), and which of
 * those provably never reached a server (safe to send again elsewhere).
 */
/** Node error codes of a connection that failed or died, rather than a server's answer. */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ETIMEDOUT",
  "EPIPE",
  "ERR_HTTP2_GOAWAY_SESSION",
  "ERR_HTTP2_SESSION_ERROR",
  "ERR_HTTP2_ERROR",
]);

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

/** The call failed because the connection to the endpoint failed (not a server's answer). */
export function isConnectionFailure(error: unknown): boolean {
  // An error the server sent has no Node error beneath it; only the client's side adds one.
  return nodeCodes(error).some((code) => CONNECTION_CODES.has(code));
}

/**
 * The connection was refused before a single byte of the request went out, so no server
 * saw the call: the only failure a non-idempotent call may be sent again after. A reset or
 * GOAWAY may come after the server started executing, so it never qualifies.
 */
export function neverReachedServer(error: unknown): boolean {
  return nodeCodes(error).includes("ECONNREFUSED");
}
