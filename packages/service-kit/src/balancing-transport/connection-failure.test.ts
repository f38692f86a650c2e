import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { isConnectionFailure, neverReachedServer } from "./connection-failure.js";

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
});
