/**
 * The access line of an HTTP edge (the gateway): one "request" line per request, whoever
 * answered it (a route, the guard, the body limit, the not-found handler, or Node's parser
 * for a request it could not read). It names the route TEMPLATE, never the path, which can
 * carry ids and, pasted by mistake, secrets; and never a body, query string, header value
 * or credential.
 *
 * Level: info, and warn for a 5xx. A 5xx that is a fault has its own error line with the
 * cause (the gateway's onError); an access line at error would count each fault twice, and
 * 503s that are expected (/readyz while draining) would page someone.
 */
import type { Logger } from "./logger.js";

export const ACCESS_LOG_MESSAGE = "request";
/** The route of a request no route matched (404, 405, a preflight, Node's parser errors). */
export const UNMATCHED_ROUTE = "(unmatched)";

export interface HttpAccess {
  /** Absent when the request line could not be read. */
  method?: string;
  /** The matched route template ("/experiments/{experiment_id}") or UNMATCHED_ROUTE. */
  route: string;
  status: number;
  /** Until the response's head was ready (a streamed body may still be flowing). */
  durationMs?: number;
  requestId?: string;
  /** The authenticated caller's account; absent when the request was not authenticated. */
  accountId?: string;
}

export function logHttpAccess(logger: Logger, access: HttpAccess): void {
  const fields: Record<string, unknown> = {};
  if (access.method !== undefined) fields.method = access.method;
  fields.route = access.route;
  fields.status = access.status;
  if (access.durationMs !== undefined) fields.duration_ms = Math.round(access.durationMs * 10) / 10;
  if (access.requestId !== undefined) fields.request_id = access.requestId;
  if (access.accountId !== undefined) fields.account_id = access.accountId;
  if (access.status >= 500) logger.warn(fields, ACCESS_LOG_MESSAGE);
  else logger.info(fields, ACCESS_LOG_MESSAGE);
}

/** HTTP methods by name: the only part of an unreadable request line an access line repeats. */
const METHOD = /^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS|TRACE|CONNECT) /;

/** The method of a raw request, when its first bytes name one. */
export function methodOfRawRequest(raw: Buffer | undefined): string | undefined {
  if (!raw) return undefined;
  return METHOD.exec(raw.subarray(0, 8).toString("latin1"))?.[1];
}
