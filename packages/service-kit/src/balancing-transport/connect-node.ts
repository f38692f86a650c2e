/**
 * The balancing transport over real connections: one Connect transport over HTTP/2 (h2c or
 * TLS), with its own session, per endpoint.
 */
import {
  type ConnectTransportOptions,
  Http2SessionManager,
  type Http2SessionOptions,
  createConnectTransport,
} from "@connectrpc/connect-node";
import { BalancingTransport, type BalancingTransportOptions } from "./balancing-transport.js";

export type BalancedConnectTransportOptions = Pick<
  ConnectTransportOptions,
  "interceptors" | "useBinaryFormat" | "acceptCompression" | "sendCompression"
> &
  Omit<BalancingTransportOptions, "connect"> & {
    /** Keep-alive and idle settings of each endpoint's HTTP/2 session. */
    session?: Http2SessionOptions;
  };

/** A Connect transport over HTTP/2 that balances each call over every endpoint of `urls`. */
export function createBalancedConnectTransport(options: BalancedConnectTransportOptions): BalancingTransport {
  const { interceptors, useBinaryFormat, acceptCompression, sendCompression, session, ...balancing } =
    options;
  return new BalancingTransport({
    ...balancing,
    connect(baseUrl) {
      // A session manager of our own, so the endpoint's connection can be closed when it goes.
      const sessionManager = new Http2SessionManager(baseUrl, session);
      const transport = createConnectTransport({
        baseUrl,
        httpVersion: "2",
        sessionManager,
        ...(interceptors && { interceptors }),
        ...(useBinaryFormat !== undefined && { useBinaryFormat }),
        ...(acceptCompression && { acceptCompression }),
        ...(sendCompression !== undefined && { sendCompression }),
      });
      return { transport, close: () => sessionManager.abort() };
    },
  });
}
