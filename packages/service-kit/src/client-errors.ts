/**
 * Requests Node's HTTP parser refuses before any handler sees them (headers too large, both
 * Content-Length and Transfer-Encoding, malformed request lines, a request not received in
 * time) are answered with the same error envelope as everything else,
 * {"error":{"code","message","details"}}, instead of Node's bare status line. The connection
 * is closed afterwards: after a parse error the rest of the bytes cannot be framed.
 */
import type { EventEmitter } from "node:events";
import type { Duplex } from "node:stream";
import { newRequestId } from "./context.js";
import { UNMATCHED_ROUTE, logHttpAccess, methodOfRawRequest } from "./http-access-log.js";
import type { Logger } from "./logger.js";

interface Answer {
  status: number;
  reason: string;
  code: string;
  message: string;
}

const BAD_REQUEST: Answer = {
  status: 400,
  reason: "Bad Request",
  code: "bad_request",
  message: "the request is not valid HTTP/1.1",
};

const ANSWER_BY_CODE: Readonly<Record<string, Answer>> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: "Request Header Fields Too Large",
    code: "request_header_fields_too_large",
    message: "the request's headers are too large",
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: "Request Timeout",
    code: "request_timeout",
    message: "the request was not received in time",
  },
};

function answerFor(error: { code?: string }): Answer {
  return (error.code !== undefined && ANSWER_BY_CODE[error.code]) || BAD_REQUEST;
}

/** The status a parser error is answered with (431, 408 or 400). */
export function clientErrorStatus(error: { code?: string }): number {
  return answerFor(error).status;
}

/** The complete HTTP/1.1 response (status line, headers, JSON body) for a parser error. */
export function clientErrorResponse(error: { code?: string }): string {
  const answer = answerFor(error);
  const body = JSON.stringify({ error: { code: answer.code, message: answer.message, details: {} } });
  return [
    `HTTP/1.1 ${answer.status} ${answer.reason}`,
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Cache-Control: no-store",
    "X-Content-Type-Options: nosniff",
    "Connection: close",
    "",
    body,
  ].join("\r\n");
}

export interface AnswerClientErrorsOptions {
  /** Write the access line (http-access-log.ts) for each answer: the gateway's server does. */
  accessLog?: boolean;
}

/** Answers the 'clientError' events of an HTTP/1 server (node:http) with the envelope. */
export function answerClientErrors(
  server: EventEmitter,
  logger?: Logger,
  options: AnswerClientErrorsOptions = {},
): void {
  server.on("clientError", (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    // The code only: the error carries the raw request bytes (rawPacket), which may hold credentials.
    logger?.debug({ code: error.code }, "http/1 client error");
    const response = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    // A reset peer, or a response already under way: nothing more can be said on this socket.
    if (error.code === "ECONNRESET" || !socket.writable || response?.headersSent) {
      socket.destroy();
      return;
    }
    socket.end(clientErrorResponse(error), () => socket.destroy());
    if (logger && options.accessLog) {
      // No route ran and no request id was received: the line gets a request id of its own
      // (and no trace: the request never became one).
      const method = methodOfRawRequest(error.rawPacket);
      logHttpAccess(logger, {
        ...(method === undefined ? {} : { method }),
        route: UNMATCHED_ROUTE,
        status: clientErrorStatus(error),
        requestId: newRequestId(),
      });
    }
  });
}
