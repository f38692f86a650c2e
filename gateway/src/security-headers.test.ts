/** Security headers on every response and CORS for configured origins (lib/security-headers.ts, lib/cors.ts). */
import { Tier } from "@petri/contracts/identity";
import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { parseCorsOrigins } from "./lib/cors.js";
import { FakeIdentity, bodyOf, from, gatewayFor } from "../test/support/fake-identity.js";

const SOURCE = "198.51.100.32";
const ORIGIN = "https://app.example.org";

let identity: FakeIdentity;
let apiKey: string;

beforeEach(async () => {
  identity = await FakeIdentity.create(new FakeClock("2026-03-02T10:00:00.000Z"));
  apiKey = identity.addAccount({ tier: Tier.PRO }).secret;
});

const tls = (address: string) => ({
  incoming: { socket: { remoteAddress: address, remotePort: 40000, remoteFamily: "IPv4", encrypted: true } },
});

describe("security headers", () => {
  it("API responses (including errors) carry Referrer-Policy, nosniff, X-Frame-Options and a locked-down CSP", async () => {
    const app = await gatewayFor(identity);
    for (const path of ["/config", "/experiments"]) {
      const response = await app.request(path, {}, from(SOURCE));
      expect(response.headers.get("referrer-policy"), path).toBe("no-referrer");
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(response.headers.get("x-frame-options"), path).toBe("DENY");
      expect(response.headers.get("content-security-policy"), path).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      expect(response.headers.get("strict-transport-security"), path).toBeNull();
    }
  });

  it("the docs pages keep their own CSP, and are not framable", async () => {
    const app = await gatewayFor(identity);
    for (const path of ["/docs", "/redoc"]) {
      const response = await app.request(path, {}, from(SOURCE));
      expect(response.status).toBe(200);
      expect(response.headers.get("content-security-policy")).toContain("script-src 'self'");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
    }
  });

  it("HSTS only over TLS, or X-Forwarded-Proto: https from a trusted proxy", async () => {
    const plain = await gatewayFor(identity);
    expect(
      (await plain.request("/config", {}, tls(SOURCE))).headers.get("strict-transport-security"),
    ).toMatch(/^max-age=\d+/);
    const forwarded = { headers: { "x-forwarded-proto": "https" } };
    expect(
      (await plain.request("/config", forwarded, from(SOURCE))).headers.get("strict-transport-security"),
    ).toBeNull();
    const behindProxy = await gatewayFor(identity, { trustProxy: true });
    expect(
      (await behindProxy.request("/config", forwarded, from(SOURCE))).headers.get(
        "strict-transport-security",
      ),
    ).toMatch(/^max-age=\d+/);
  });
});

describe("CORS", () => {
  it("is off by default: no Access-Control headers, and OPTIONS is not a preflight", async () => {
    const app = await gatewayFor(identity);
    const response = await app.request(
      "/experiments",
      { method: "OPTIONS", headers: { origin: ORIGIN, "access-control-request-method": "POST" } },
      from(SOURCE),
    );
    expect(response.status).not.toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("answers a preflight from a listed origin with 204 before authentication, without drawing quota", async () => {
    const app = await gatewayFor(identity, { corsOrigins: [ORIGIN] });
    expect(identity.count("AcquireQuota")).toBe(0);
    const response = await app.request(
      "/experiments",
      {
        method: "OPTIONS",
        headers: {
          origin: ORIGIN,
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization, idempotency-key, content-type",
        },
      },
      from(SOURCE),
    );
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(response.headers.get("access-control-allow-methods")).toContain("POST");
    const allowedHeaders = response.headers.get("access-control-allow-headers")!.toLowerCase();
    for (const header of ["authorization", "x-api-key", "idempotency-key", "content-type"])
      expect(allowedHeaders).toContain(header);
    expect(response.headers.get("x-ratelimit-limit")).toBeNull();
    expect(identity.count("AcquireQuota")).toBe(0);
  });

  it("a listed origin's request exposes the rate-limit, request-id, Retry-After and Idempotent-Replayed headers", async () => {
    const app = await gatewayFor(identity, { corsOrigins: [ORIGIN] });
    const response = await app.request(
      "/experiments",
      { headers: { origin: ORIGIN, "x-api-key": apiKey } },
      from(SOURCE),
    );
    expect(response.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    const exposed = response.headers.get("access-control-expose-headers")!.toLowerCase();
    for (const header of [
      "x-ratelimit-limit",
      "x-ratelimit-remaining",
      "x-ratelimit-reset",
      "x-request-id",
      "retry-after",
      "idempotent-replayed",
    ])
      expect(exposed).toContain(header);
  });

  it("an unlisted origin gets no CORS headers and its OPTIONS goes the usual way", async () => {
    const app = await gatewayFor(identity, { corsOrigins: [ORIGIN] });
    const response = await app.request(
      "/experiments",
      {
        method: "OPTIONS",
        headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
      },
      from(SOURCE),
    );
    expect(response.status).not.toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect((await bodyOf(response)).error).toBeDefined();
  });

  it("PETRI_CORS_ORIGINS takes exact origins only", () => {
    expect(parseCorsOrigins(undefined)).toEqual([]);
    expect(parseCorsOrigins(" https://a.example , http://localhost:3000")).toEqual([
      "https://a.example",
      "http://localhost:3000",
    ]);
    expect(() => parseCorsOrigins("https://a.example/")).toThrow(/not an origin/);
    expect(() => parseCorsOrigins("*")).toThrow(/not an origin/);
  });
});
