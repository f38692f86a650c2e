import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import {
  connectionFailureAsUnavailable,
  isConnectionFailure,
  neverReachedServer,
} from "./connection-failure.js";

const nodeError = (code: string) => Object.assign(new Error(code), { code });
const fromClient = (code: string) =>
  new ConnectError(code, Code.Unavailable, undefined, undefined, nodeError(code));

describe("connection failures", () => {
  it("a refused connection never reached a server", () => {
    expect(isConnectionFailure(fromClient("ECONNREFUSED"))).toBe(true);
    expect(neverReachedServer(fromClient("ECONNREFUSED"))).toBe(true);
  });

  it("a reset or GOAWAY is a connection failure that may have reached a server", () => {
    for (const code of ["ECONNRESET", "ERR_HTTP2_GOAWAY_SESSION", "ETIMEDOUT"]) {
      expect(isConnectionFailure(fromClient(code))).toBe(true);
      expect(neverReachedServer(fromClient(code))).toBe(false);
    }
  });

  it("an error a server answered is neither", () => {
    const answered = new ConnectError("server is shutting down", Code.Unavailable);
    expect(isConnectionFailure(answered)).toBe(false);
    expect(neverReachedServer(answered)).toBe(false);
    expect(isConnectionFailure(new ConnectError("no such experiment", Code.NotFound))).toBe(false);
  });

  it("connect-node's own error for a stream closed under the call is one, the same text from a server is not", () => {
    const message = "http/2 stream closed with error code CANCEL (0x8)";
    expect(isConnectionFailure(new ConnectError(message, Code.Canceled))).toBe(true);
    // A decoded answer carries the response's headers.
    const relayed = new ConnectError(
      message,
      Code.Canceled,
      new Headers({ "content-type": "application/json" }),
    );
    expect(isConnectionFailure(relayed)).toBe(false);
  });

  it("a connection failure becomes Unavailable with the original as cause; anything else stays as it is", () => {
    const original = new ConnectError(
      "read ECONNRESET",
      Code.Aborted,
      undefined,
      undefined,
      nodeError("ECONNRESET"),
    );
    const unavailable = connectionFailureAsUnavailable(original);
    expect(unavailable).toBeInstanceOf(ConnectError);
    expect(unavailable).toMatchObject({ code: Code.Unavailable, cause: original });
    expect(isConnectionFailure(unavailable)).toBe(true);
    const answered = new ConnectError("no such experiment", Code.NotFound);
    expect(connectionFailureAsUnavailable(answered)).toBe(answered);
  });

  it("a refused connection stays resendable once it is Unavailable", () => {
    expect(neverReachedServer(connectionFailureAsUnavailable(fromClient("ECONNREFUSED")))).toBe(true);
  });
});
