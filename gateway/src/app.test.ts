import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { Code, ConnectError } from "@connectrpc/connect";
import { serve } from "@hono/node-server";
import { QuotaPolicy, Role, Tier } from "@petri/contracts/identity";
import { ConflictError, ValidationError, domainErrorToConnectError } from "@petri/service-kit";
import { FakeClock } from "@petri/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FakeIdentity, bodyOf, from, gatewayFor, json } from "../test/support/fake-identity.js";

const SOURCE = "198.51.100.30";
const registration = { email: "ada@example.org", password: "long enough password", name: "Ada" };

let clock: FakeClock;
let identity: FakeIdentity;
let app: Awaited<ReturnType<typeof gatewayFor>>;
let apiKey: string;

beforeEach(async () => {
  clock = new FakeClock("2026-03-02T10:00:00.000Z");
  identity = await FakeIdentity.create(clock);
  app = await gatewayFor(identity); // maxBodyBytes 4096
  apiKey = identity.addAccount({ tier: Tier.PRO }).secret;
});

const authed = (init: RequestInit = {}) => ({
  ...init,
  headers: { "x-api-key": apiKey, ...(init.headers as Record<string, string>) },
});

function expectErrorShape(body: any, code: string) {
  expect(Object.keys(body)).toEqual(["error"]);
  expect(Object.keys(body.error).sort()).toEqual(["code", "details", "message"]);
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe("string");
  expect(typeof body.error.details).toBe("object");
}

describe("one error shape", () => {
  it("404 not_found for an unknown route, with the rate-limit headers", async () => {
    const response = await app.request("/experiments/nope/whatever", authed(), from(SOURCE));
    expect(response.status).toBe(404);
    expectErrorShape(await bodyOf(response), "not_found");
    expect(response.headers.get("x-ratelimit-limit")).not.toBeNull();
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("405 method_not_allowed with Allow for a known path and the wrong method", async () => {
    const response = await app.request("/auth/api-keys", authed({ method: "PUT" }), from(SOURCE));
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD, POST");
    expectErrorShape(await bodyOf(response), "method_not_allowed");

    const withParam = await app.request("/auth/api-keys/key_1", authed({ method: "GET" }), from(SOURCE));
    expect(withParam.status).toBe(405);
    expect(withParam.headers.get("allow")).toBe("DELETE");
  });

  it("422 validation_failed with per-field details for schema violations, unknown fields and malformed JSON", async () => {
    const missing = await app.request("/auth/register", json({ email: "a@b.co" }), from(SOURCE));
    expect(missing.status).toBe(422);
    const missingBody = await bodyOf(missing);
    expectErrorShape(missingBody, "validation_failed");
    expect(missingBody.error.details.errors).toEqual(
      expect.arrayContaining([
        { field: "password", code: "missing_required", message: "required" },
        { field: "name", code: "missing_required", message: "required" },
      ]),
    );

    const unknown = await app.request(
      "/auth/register",
      json({ ...registration, is_staff: true }),
      from(SOURCE),
    );
    expect(unknown.status).toBe(422);
    expect((await bodyOf(unknown)).error.details.errors).toEqual([
      { field: "is_staff", code: "invalid_value", message: "unknown field" },
    ]);

    const wrongType = await app.request("/auth/register", json({ ...registration, name: 42 }), from(SOURCE));
    expect((await bodyOf(wrongType)).error.details.errors).toEqual([
      expect.objectContaining({ field: "name", code: "invalid_value" }),
    ]);

    const malformed = await app.request("/auth/register", json("{not json"), from(SOURCE));
    expect(malformed.status).toBe(422);
    expectErrorShape(await bodyOf(malformed), "validation_failed");
  });

  it("415 unsupported_media_type for a body that is not JSON on a JSON route", async () => {
    for (const contentType of ["text/plain", "application/x-www-form-urlencoded", "application/xml"]) {
      const response = await app.request(
        "/auth/register",
        { method: "POST", headers: { "content-type": contentType }, body: JSON.stringify(registration) },
        from(SOURCE),
      );
      expect(response.status, contentType).toBe(415);
      expectErrorShape(await bodyOf(response), "unsupported_media_type");
    }
    const noType = await app.request("/auth/register", { method: "POST", body: "x=1" }, from(SOURCE));
    expect(noType.status).toBe(415);
  });

  it("413 payload_too_large when Content-Length is over the limit", async () => {
    const response = await app.request(
      "/auth/register",
      json({ ...registration, name: "x".repeat(5_000) }),
      from(SOURCE),
    );
    expect(response.status).toBe(413);
    expect(await bodyOf(response)).toEqual({
      error: { code: "payload_too_large", message: expect.any(String), details: { max_bytes: 4096 } },
    });
    expect(identity.count("RegisterAccount")).toBe(0);
  });

  it("500 internal_error with the request id and nothing internal", async () => {
    identity.failures.set(
      "RegisterAccount",
      () => new Error("relation accounts does not exist at /srv/x.ts:12"),
    );
    const response = await app.request(
      "/auth/register",
      {
        ...json(registration),
        headers: { "content-type": "application/json", "x-request-id": "req-test-1" },
      },
      from(SOURCE),
    );
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toMatch(/relation|\/srv|stack|at \w+/);
    expect(JSON.parse(text)).toEqual({
      error: { code: "internal_error", message: "internal error", details: { request_id: "req-test-1" } },
    });
    expect(response.headers.get("x-ratelimit-remaining")).not.toBeNull();
  });

  it("maps a service's domain errors to their status and code, never flattened to 500", async () => {
    identity.failures.set("RegisterAccount", () =>
      domainErrorToConnectError(new ConflictError("taken", "email_taken", { field: "email" })),
    );
    const conflict = await app.request("/auth/register", json(registration), from(SOURCE));
    expect(conflict.status).toBe(409);
    expect(await bodyOf(conflict)).toEqual({
      error: { code: "email_taken", message: "taken", details: { field: "email" } },
    });

    identity.failures.set("RegisterAccount", () =>
      domainErrorToConnectError(
        new ValidationError("bad", [{ field: "password", code: "invalid_value", message: "too short" }]),
      ),
    );
    const invalid = await app.request("/auth/register", json(registration), from(SOURCE));
    expect(invalid.status).toBe(422);
    expect((await bodyOf(invalid)).error.details.errors).toEqual([
      { field: "password", code: "invalid_value", message: "too short" },
    ]);

    identity.failures.set("RegisterAccount", () => new ConnectError("db down", Code.Unavailable));
    const unavailable = await app.request("/auth/register", json(registration), from(SOURCE));
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get("retry-after")).toBe("1");
    expect((await bodyOf(unavailable)).error.code).toBe("unavailable");

    identity.failures.set("RegisterAccount", () => new ConnectError("not here", Code.Unimplemented));
    const unimplemented = await app.request("/auth/register", json(registration), from(SOURCE));
    expect(unimplemented.status).toBe(501);
    expect((await bodyOf(unimplemented)).error.code).toBe("not_implemented");
  });

  it("never caches: no-store on every API response, secret-bearing ones included", async () => {
    const created = await app.request("/auth/register", json(registration), from(SOURCE));
    expect(created.status).toBe(201);
    expect(created.headers.get("cache-control")).toBe("no-store");
    for (const path of ["/auth/me", "/config", "/nope"]) {
      expect((await app.request(path, authed(), from(SOURCE))).headers.get("cache-control")).toBe("no-store");
    }
  });
});

describe.each([
  ["default server options", true],
  ["overrideGlobalObjects: false", false],
])("body limits over a real socket (%s)", (_name, overrideGlobalObjects) => {
  let server: ReturnType<typeof serve>;
  let port: number;

  beforeEach(async () => {
    server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1", overrideGlobalObjects });
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    port = (server.address() as AddressInfo).port;
  });

  afterEach(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** Sends `chunks` with Transfer-Encoding: chunked (no Content-Length). */
  function chunked(path: string, chunks: string[], headers: Record<string, string> = {}) {
    return new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port,
          path,
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (text += chunk));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }),
          );
        },
      );
      req.on("error", (error: NodeJS.ErrnoException) => (error.code === "EPIPE" ? undefined : reject(error)));
      for (const chunk of chunks) req.write(chunk);
      req.end();
    });
  }

  it("413 for a chunked body over the limit without Content-Length", async () => {
    const big = JSON.stringify({ ...registration, name: "x".repeat(6_000) });
    const response = await chunked("/auth/register", [
      big.slice(0, 1_000),
      big.slice(1_000, 3_000),
      big.slice(3_000),
    ]);
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe("payload_too_large");
    expect(identity.count("RegisterAccount")).toBe(0);
  });

  it("413 for a chunked body over the limit on a route that never reads a body", async () => {
    const staff = identity.addAccount({ role: Role.STAFF }).secret;
    const response = await chunked("/staff/signing-keys/rotate", ["x".repeat(3_000), "x".repeat(3_000)], {
      "x-api-key": staff,
    });
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe("payload_too_large");
    expect(identity.count("RotateSigningKey")).toBe(0);
  });

  it("accepts a chunked body under the limit", async () => {
    const body = JSON.stringify(registration);
    const response = await chunked("/auth/register", [body.slice(0, 10), body.slice(10)]);
    expect(response.status).toBe(201);
    expect(response.body.account.email).toBe("ada@example.org");
  });

  it("closes the connection after refusing an unread body, so the next request on it is not lost", async () => {
    const base = `http://127.0.0.1:${port}`;
    const post = (body: string) =>
      fetch(`${base}/auth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
    const big = await post(JSON.stringify({ ...registration, password: "p".repeat(200_000) }));
    expect(big.status).toBe(413);
    expect(big.headers.get("connection")).toBe("close");
    await big.text();
    for (let i = 0; i < 3; i += 1) {
      const next = await post(JSON.stringify({ ...registration, email: `ada${i}@example.org` }));
      expect(next.status).toBe(201);
      expect(next.headers.get("connection")).not.toBe("close"); // a read body keeps the connection
      await next.text();
    }
  });

  it("takes the source address from the socket", async () => {
    const response = await chunked("/auth/register", [JSON.stringify(registration)], {
      "x-forwarded-for": "203.0.113.250",
    });
    expect(response.status).toBe(201);
    const draws = identity.principals.filter((p) => p.method === "AcquireQuota");
    expect(draws.length).toBeGreaterThan(0);
    // The fake's counters are keyed by subject; the loopback peer got the draw, not the header.
    expect(identity.grantedThisMinute(QuotaPolicy.ANONYMOUS, "127.0.0.1")).toBeGreaterThan(0);
    expect(identity.grantedThisMinute(QuotaPolicy.ANONYMOUS, "203.0.113.250")).toBe(0);
  });
});
