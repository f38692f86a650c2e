/**
 * One TCP port for two protocols: each accepted connection's first bytes decide whether it
 * goes to the HTTP/2 (h2c, prior knowledge) or the HTTP/1.1 server, neither of which listens
 * itself. And the drain at shutdown: stop accepting, GOAWAY the HTTP/2 sessions, let
 * keep-alive connections go idle, cut what is left after the deadline.
 */
import http from "node:http";
import http2 from "node:http2";
import type net from "node:net";
import { answerClientErrors } from "./client-errors.js";
import type { Logger } from "./logger.js";
import type { NodeHandlerFn } from "./server-probes.js";

/** What every HTTP/2 client sends first (RFC 9113 section 3.4). */
const HTTP2_PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export interface ConnectionOptions {
  /** The Connect handler both servers run. */
  handler: NodeHandlerFn;
  logger: Logger;
  /** A connection that sends nothing for this long is dropped. */
  firstBytesTimeoutMs: number;
  /** True once close() began: new connections and sessions are turned away. */
  closing: () => boolean;
}

export interface Connections {
  /** The net.Server connection listener. */
  accept(socket: net.Socket): void;
  /** Ends every connection: gracefully until `deadline` (Date.now() ms), forcibly after. */
  drain(deadline: number): Promise<void>;
}

function http1Server(options: ConnectionOptions): http.Server {
  const server = http.createServer(options.handler);
  // The HTTP/1 server never listens, but its 'listening' hook is what starts Node's connection
  // tracking: headersTimeout/requestTimeout (slow-client protection) and closeIdleConnections().
  server.emit("listening");
  server.prependListener("request", (_req, res) => {
    // While closing, finish the request but do not keep the connection alive. (Prepended: the
    // handler may write headers synchronously.)
    if (options.closing()) res.setHeader("connection", "close");
  });
  answerClientErrors(server, options.logger);
  return server;
}

function http2Server(options: ConnectionOptions, sessions: Set<http2.ServerHttp2Session>): http2.Http2Server {
  const server = http2.createServer(options.handler);
  server.on("session", (session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
    session.on("error", (error) => options.logger.debug({ err: error }, "http/2 session error"));
    // A connection accepted just before close() still gets a GOAWAY.
    if (options.closing()) session.close();
  });
  return server;
}

/** Reads until the bytes can only be (or cannot be) the HTTP/2 preface, then hands the socket over. */
function sniffProtocol(socket: net.Socket, decided: (isHttp2: boolean, received: Buffer) => void): void {
  let received: Buffer = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    received = received.length === 0 ? chunk : Buffer.concat([received, chunk]);
    const compared = Math.min(received.length, HTTP2_PREFACE.length);
    const prefaceSoFar = received.subarray(0, compared).equals(HTTP2_PREFACE.subarray(0, compared));
    if (prefaceSoFar && received.length < HTTP2_PREFACE.length) return; // need more bytes to decide
    socket.removeListener("data", onData);
    decided(prefaceSoFar, received);
  };
  socket.on("data", onData);
}

export function serveConnections(options: ConnectionOptions): Connections {
  const { logger } = options;
  const http1 = http1Server(options);
  const sessions = new Set<http2.ServerHttp2Session>();
  const h2 = http2Server(options, sessions);
  const sockets = new Set<net.Socket>();
  const sniffing = new Set<net.Socket>();

  function accept(socket: net.Socket): void {
    sockets.add(socket);
    socket.once("close", () => {
      sockets.delete(socket);
      sniffing.delete(socket);
    });
    // A reset connection must not crash the process, whichever server owns it by then.
    socket.on("error", (error) => logger.debug({ err: error }, "connection error"));
    if (options.closing()) {
      socket.destroy();
      return;
    }
    sniffing.add(socket);
    socket.setTimeout(options.firstBytesTimeoutMs, () => socket.destroy());
    sniffProtocol(socket, (isHttp2, received) => {
      socket.setTimeout(0);
      sniffing.delete(socket);
      if (isHttp2) {
        // Http2Session reads whatever is already buffered on the socket before its native
        // reader takes over, so putting the bytes back is enough.
        socket.pause();
        socket.unshift(received);
        h2.emit("connection", socket);
      } else {
        // The HTTP/1 parser reads the socket natively from here on; the bytes we already took
        // are fed to it directly, before any later read can arrive.
        http1.emit("connection", socket);
        socket.emit("data", received);
      }
    });
  }

  async function drain(deadline: number): Promise<void> {
    // G12: an http2 server never finishes closing while client sessions live. close() sends
    // GOAWAY and ends the session once its open streams are done.
    for (const session of sessions) session.close();
    for (const socket of sniffing) socket.destroy();
    while (sockets.size > 0 && Date.now() < deadline) {
      // Keep-alive connections become idle as their last response completes.
      http1.closeIdleConnections();
      await delay(20);
    }
    if (sockets.size > 0) {
      logger.warn({ connections: sockets.size }, "drain timed out; closing connections forcibly");
      for (const session of sessions) session.destroy();
      http1.closeAllConnections();
      for (const socket of sockets) socket.destroy();
    }
    http1.close(); // stops its connection-checking timer
  }

  return { accept, drain };
}

/** Stops `server` accepting; resolves once it has (its open connections are drain's job). */
export function stopAccepting(server: net.Server): Promise<void> {
  return new Promise<void>((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
  });
}
