import { createLogger } from "@petri/service-kit";
import { repeatedLogKeys } from "@petri/fixtures/service-kit";
import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { FakeIdentity, from, gatewayFor, json } from "../../test/support/fake-identity.js";

const SOURCE = "198.51.100.40";
const ORIGIN = "https://app.example.org";

let identity: FakeIdentity;
let raw: string[];
let app: Awaited<ReturnType<typeof gatewayFor>>;
let apiKey: string;
let accountId: string;

beforeEach(async () => {
  identity = await FakeIdentity.create(new FakeClock("2026-03-02T10:00:00.000Z"));
  raw = [];
  const logger = createLogger({
    service: "standalone",
    level: "info",
    destination: { write: (line: string) => void raw.push(line) },
  });
  app = await gatewayFor(identity, { logger, corsOrigins: [ORIGIN] }); // maxBodyBytes 4096
  const added = identity.addAccount();
  apiKey = added.secret;
  accountId = added.account.id;
});

/** The access lines written so far, parsed. */
const accessLines = () =>
  raw.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === "request");

describe("the gateway's access line", () => {
  it("names the route template, status, duration, ids and account, and nothing from the request", async () => {
    const response = await app.request(
      "/auth/api-keys/key_notmine42?token=query-secret-value&email=ada%40example.org",
      { method: "DELETE", headers: { "x-api-key": apiKey } },
      from(SOURCE),
    );
    const [line] = accessLines();
    expect(accessLines()).toHaveLength(1);
    expect(line).toEqual({
      level: response.status >= 500 ? "warn" : "info",
      time: expect.any(String),
      service: "gateway",
      method: "DELETE",
      route: "/auth/api-keys/{api_key_id}",
      status: response.status,
      duration_ms: expect.any(Number),
      request_id: response.headers.get("x-request-id"),
      // The request's span (request-scope.ts), whose trace the caller's traceparent would continue.
      trace_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      span_id: expect.stringMatching(/^[0-9a-f]{16}$/),
      account_id: accountId,
      msg: "request",
    });
    expect(JSON.stringify(line)).not.toMatch(/key_notmine42|query-secret-value|ada|petri_sk_/);
  });

  it("continues the caller's trace (its ids passed on, nothing being exported); each other request is a trace of its own", async () => {
    const response = await app.request(
      "/auth/me",
      {
        headers: {
          "x-api-key": apiKey,
          traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        },
      },
      from(SOURCE),
    );
    expect(response.status).toBe(200);
    const [line] = accessLines();
    expect(line).toMatchObject({ trace_id: "4bf92f3577b34da6a3ce929d0e0e4736", route: "/auth/me" });
    // Nothing is exported here: the gateway makes no span of its own and passes the caller's on.
    expect(line!.span_id).toBe("00f067aa0ba902b7");
    // Without one, each request is a trace of its own (startEdgeSpan gives it ids).
    await app.request("/health", {}, from(SOURCE));
    await app.request("/health", {}, from(SOURCE));
    const [, first, second] = accessLines();
    expect(first!.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(second!.trace_id).not.toBe(first!.trace_id);
  });

  it("holds no bearer token, API key, e-mail address, password or query string", async () => {
    const token = "eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ1c3JfMSJ9.c2lnbmF0dXJlLXZhbHVl";
    await app.request(
      "/auth/me?api_key=in-the-query",
      { headers: { authorization: `Bearer ${token}` } },
      from(SOURCE),
    );
    await app.request(
      "/auth/register",
      json({ email: "grace@example.org", password: "a password nobody may read", name: "Grace" }),
      from(SOURCE),
    );
    await app.request("/auth/me", { headers: { "x-api-key": `${apiKey.slice(0, -4)}0000` } }, from(SOURCE));
    const lines = accessLines();
    expect(lines.map((line) => [line.route, line.status])).toEqual([
      ["/auth/me", 401],
      ["/auth/register", 201],
      ["/auth/me", 401],
    ]);
    // Failed authentications name no account; the registration was not an authenticated call.
    for (const line of lines) expect(line).not.toHaveProperty("account_id");
    const text = raw.join("");
    for (const secret of [
      token,
      "in-the-query",
      "grace@example.org",
      "a password nobody may read",
      apiKey.slice(0, -4),
    ])
      expect(text).not.toContain(secret);
  });

  it("is written for requests answered before routing: 404, 405, 413, a preflight, health and docs", async () => {
    const answers = [
      await app.request("/no/such/route/secret-path-part", {}, from(SOURCE)),
      await app.request("/auth/api-keys", { method: "PUT", headers: { "x-api-key": apiKey } }, from(SOURCE)),
      await app.request("/auth/register", json({ name: "x".repeat(5000) }), from(SOURCE)),
      await app.request(
        "/auth/api-keys",
        { method: "OPTIONS", headers: { origin: ORIGIN, "access-control-request-method": "POST" } },
        from(SOURCE),
      ),
      await app.request("/healthz", {}, from(SOURCE)),
      await app.request("/openapi.json", {}, from(SOURCE)),
    ];
    expect(accessLines().map((line) => [line.method, line.route, line.status])).toEqual([
      ["GET", "(unmatched)", 404],
      ["PUT", "(unmatched)", 405],
      ["POST", "/auth/register", 413],
      ["OPTIONS", "(unmatched)", answers[3]!.status],
      ["GET", "/healthz", 200],
      ["GET", "/openapi.json", 200],
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([404, 405, 413, 204, 200, 200]);
    expect(raw.join("")).not.toContain("secret-path-part");
  });

  it("is one line per request, and no line repeats a key", async () => {
    for (let i = 0; i < 5; i += 1)
      await app.request("/auth/api-keys", { headers: { "x-api-key": apiKey } }, from(SOURCE));
    expect(accessLines()).toHaveLength(5);
    expect(raw.length).toBeGreaterThanOrEqual(5);
    for (const line of raw) expect(repeatedLogKeys(line), line).toEqual([]);
  });
});
