import { describe, expect, it } from "vitest";
import { captureLogs } from "../test/log-capture.js";
import { logHttpAccess, methodOfRawRequest } from "./http-access-log.js";

describe("logHttpAccess", () => {
  it("writes info below 500 and warn for a 5xx, with only the fields it was given", () => {
    const { logger, lines } = captureLogs("info");
    logHttpAccess(logger, { method: "GET", route: "/healthz", status: 200, durationMs: 1.26 });
    logHttpAccess(logger, { route: "(unmatched)", status: 503, requestId: "req_1" });
    expect(lines).toEqual([
      expect.objectContaining({
        level: "info",
        method: "GET",
        route: "/healthz",
        status: 200,
        duration_ms: 1.3,
      }),
      expect.objectContaining({ level: "warn", status: 503, request_id: "req_1" }),
    ]);
    expect(lines[0]).not.toHaveProperty("account_id");
    expect(lines[1]).not.toHaveProperty("method");
  });

  it("reads a method only from a raw request that starts with one", () => {
    expect(methodOfRawRequest(Buffer.from("DELETE /x HTTP/1.1\r\n"))).toBe("DELETE");
    expect(methodOfRawRequest(Buffer.from("GETX / HTTP/1.1"))).toBeUndefined();
    expect(methodOfRawRequest(Buffer.from("\u0000\u0001binary"))).toBeUndefined();
    expect(methodOfRawRequest(undefined)).toBeUndefined();
  });
});
