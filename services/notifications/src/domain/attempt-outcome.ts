/**
 * What one attempt's result means (docs/api.md: receivers answer 200 within 5 seconds): a 2xx
 * within the deadline is a success; anything else is a failure, in one of three public
 * classes. The class is all a requester sees: a refused address at connect time, a DNS
 * failure, a refused or reset connection, a TLS error and a timeout all read
 * `connection_failed`, so the delivery log is no oracle for what lies inside our network
 * (reliability test plan S5). The precise cause goes to the service log only.
 */
export type AttemptError = "http_status" | "redirect_not_followed" | "connection_failed";

/** A delivery whose URL itself is not allowed (no attempt is made). */
export const URL_NOT_ALLOWED = "url_not_allowed";

export type AttemptOutcome =
  { success: true; responseCode: number } | { success: false; responseCode: number; error: AttemptError };

/** The outcome of a response received within the deadline. */
export function outcomeOfStatus(statusCode: number): AttemptOutcome {
  if (statusCode >= 200 && statusCode <= 299) return { success: true, responseCode: statusCode };
  // Redirects are never followed: the receiver must answer at the URL it registered.
  if (statusCode >= 300 && statusCode <= 399)
    return { success: false, responseCode: statusCode, error: "redirect_not_followed" };
  return { success: false, responseCode: statusCode, error: "http_status" };
}

/** The outcome when no response arrived in time (or the connection was never allowed). */
export const CONNECTION_FAILED: AttemptOutcome = {
  success: false,
  responseCode: 0,
  error: "connection_failed",
};
