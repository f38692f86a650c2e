import { Tier } from "@petri/contracts/identity";
import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { FakeIdentity, bodyOf, from, gatewayFor, json } from "../../../test/support/fake-identity.js";
import { isWellFormedApiKey } from "../../lib/api-key-format.js";

const SOURCE = "198.51.100.40";
const registration = { email: "ada@example.org", password: "long enough password", name: "Ada" };

let identity: FakeIdentity;
let app: Awaited<ReturnType<typeof gatewayFor>>;

beforeEach(async () => {
  identity = await FakeIdentity.create(new FakeClock("2026-03-02T10:00:00.000Z"));
  app = await gatewayFor(identity);
});

describe("POST /auth/register", () => {
  it("creates the account and its first API key, shows the secret once and forbids caching", async () => {
    const response = await app.request(
      "/auth/register",
      json({ ...registration, organization: "Lab" }),
      from(SOURCE),
    );
    expect(response.status).toBe(201);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const created = await bodyOf(response);
    expect(created.account).toEqual({
      id: expect.stringMatching(/^usr_/),
      email: "ada@example.org",
      name: "Ada",
      organization: "Lab",
      role: "requester",
      tier: "standard",
      created_at: "2026-03-02T10:00:00.000Z",
    });
    expect(created.api_key).toEqual({
      id: expect.stringMatching(/^key_/),
      name: "default",
      prefix: created.api_key_secret.slice(0, 13),
      created_at: "2026-03-02T10:00:00.000Z",
      last_used_at: null,
      revoked_at: null,
    });
    expect(isWellFormedApiKey(created.api_key_secret)).toBe(true);
    expect(JSON.stringify(created.account)).not.toContain("password");

    const me = await app.request(
      "/auth/me",
      { headers: { "x-api-key": created.api_key_secret } },
      from(SOURCE),
    );
    expect(me.status).toBe(200);
    expect((await bodyOf(me)).account.id).toBe(created.account.id);
  });

  it("is refused with 403 registration_closed when registration is switched off", async () => {
    const closed = await gatewayFor(identity, { registrationOpen: false });
    const response = await closed.request("/auth/register", json(registration), from(SOURCE));
    expect(response.status).toBe(403);
    expect((await bodyOf(response)).error.code).toBe("registration_closed");
    expect(identity.count("RegisterAccount")).toBe(0);
  });

  it("ignores credential headers on a public route", async () => {
    const response = await app.request(
      "/auth/register",
      json(registration, { authorization: "Bearer garbage", "x-api-key": "garbage" }),
      from(SOURCE),
    );
    expect(response.status).toBe(201);
  });
});

describe("POST /auth/token", () => {
  it("exchanges e-mail and password for a bearer token that authenticates", async () => {
    identity.addAccount({ email: "ada@example.org", password: "the right one", tier: Tier.PRO });
    const response = await app.request(
      "/auth/token",
      json({ email: "ada@example.org", password: "the right one" }),
      from(SOURCE),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const issued = await bodyOf(response);
    expect(issued).toEqual({ access_token: expect.any(String), token_type: "bearer", expires_in: 900 });
    const me = await app.request(
      "/auth/me",
      { headers: { authorization: `Bearer ${issued.access_token}` } },
      from(SOURCE),
    );
    expect(me.status).toBe(200);
    expect((await bodyOf(me)).limits).toEqual({ requests_per_minute: 1_000, requests_per_day: 10_000 });
  });

  it("answers a wrong password 401, counted against the address's failed-authentication limit", async () => {
    identity.addAccount({ email: "ada@example.org", password: "the right one" });
    const response = await app.request(
      "/auth/token",
      json({ email: "ada@example.org", password: "wrong" }),
      from(SOURCE),
    );
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(response.headers.get("x-ratelimit-limit")).toBe("20");
    expect(response.headers.get("x-ratelimit-remaining")).toBe("19");
    expect((await bodyOf(response)).error).toEqual({
      code: "unauthorized",
      message: "wrong e-mail or password",
      details: {},
    });
  });

  it("rejects unknown fields (strict bodies)", async () => {
    const response = await app.request(
      "/auth/token",
      json({ email: "a@b.co", password: "x", grant_type: "password" }),
      from(SOURCE),
    );
    expect(response.status).toBe(422);
    expect((await bodyOf(response)).error.details.errors).toEqual([
      { field: "grant_type", code: "invalid_value", message: "unknown field" },
    ]);
  });
});

describe("GET /auth/me", () => {
  it.each([
    [Tier.STANDARD, "standard", 100, 1_000],
    [Tier.PRO, "pro", 1_000, 10_000],
    [Tier.AI_AGENT, "ai_agent", 500, 5_000],
  ])("returns the account and its tier's limits (%s)", async (tier, name, perMinute, perDay) => {
    const { account, secret } = identity.addAccount({ tier });
    const response = await app.request("/auth/me", { headers: { "x-api-key": secret } }, from(SOURCE));
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual({
      account: expect.objectContaining({ id: account.id, tier: name }),
      limits: { requests_per_minute: perMinute, requests_per_day: perDay },
    });
  });
});
