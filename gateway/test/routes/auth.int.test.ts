import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createGateway } from "../../src/app.js";
import { isWellFormedApiKey } from "../../src/lib/api-key-format.js";
import { createServiceClients } from "../../src/lib/clients.js";
import { type SignedUp, realServicesAvailable, realServicesOfBlock } from "../support/real-services.js";
import { bodyOf, from, json } from "../support/requests.js";
import { FakeClock } from "@petri/testkit";
import { createLogger } from "@petri/service-kit";

/** Each test calls from an address of its own: the anonymous limits count per address. */
let sources = 0;
const freshSource = () => `198.51.100.${(sources += 1) + 40}`;
const registration = () => ({
  email: `ada-${randomBytes(4).toString("hex")}@example.org`,
  password: "long enough password",
  name: "Ada",
});

describe.skipIf(!(await realServicesAvailable()))("the auth routes on the real services", () => {
  const clock = new FakeClock("2026-03-02T10:00:00.000Z");
  const accounts: Partial<Record<"standard" | "pro" | "ai_agent", SignedUp>> = {};
  const { running } = realServicesOfBlock({
    source: "198.51.100.1",
    start: () => ({ clock }),
    prepare: async (petri) => {
      for (const tier of ["standard", "pro", "ai_agent"] as const)
        accounts[tier] = await petri.signUp({ tier });
    },
  });
  const me = (source: string, headers: Record<string, string>) =>
    running().app.request("/auth/me", { headers }, from(source));

  describe("POST /auth/register", () => {
    it("creates the account and its first API key, shows the secret once and forbids caching", async () => {
      const source = freshSource();
      const body = { ...registration(), organization: "Lab" };
      const response = await running().app.request("/auth/register", json(body), from(source));
      expect(response.status).toBe(201);
      expect(response.headers.get("cache-control")).toBe("no-store");
      const created = await bodyOf(response);
      expect(created.account).toEqual({
        id: expect.stringMatching(/^usr_/),
        email: body.email,
        name: "Ada",
        organization: "Lab",
        role: "requester",
        tier: "standard",
        created_at: clock.now().toISOString(),
      });
      expect(created.api_key).toEqual({
        id: expect.stringMatching(/^key_/),
        name: "default",
        // "petri_sk_" and the first 3 random characters (identity's display prefix).
        prefix: created.api_key_secret.slice(0, 12),
        created_at: clock.now().toISOString(),
        last_used_at: null,
        revoked_at: null,
      });
      expect(isWellFormedApiKey(created.api_key_secret)).toBe(true);
      expect(JSON.stringify(created.account)).not.toContain("password");

      const seen = await me(source, { "x-api-key": created.api_key_secret });
      expect(seen.status).toBe(200);
      expect((await bodyOf(seen)).account.id).toBe(created.account.id);
      // The e-mail is taken now.
      const again = await running().app.request("/auth/register", json(body), from(freshSource()));
      expect(again.status).toBe(409);
    });

    it("is refused with 403 registration_closed when registration is switched off", async () => {
      const { services } = running();
      const closed = createGateway({
        clients: createServiceClients(services.transportFor, services.clientInterceptors),
        logger: createLogger({ service: "gateway-test", level: "silent" }),
        clock,
        registrationOpen: false,
      });
      const body = registration();
      const response = await closed.request("/auth/register", json(body), from(freshSource()));
      expect(response.status).toBe(403);
      expect((await bodyOf(response)).error.code).toBe("registration_closed");
      // Identity never heard of it: the address is still free, and has no password.
      const token = await running().app.request(
        "/auth/token",
        json({ email: body.email, password: body.password }),
        from(freshSource()),
      );
      expect(token.status).toBe(401);
      expect((await running().app.request("/auth/register", json(body), from(freshSource()))).status).toBe(
        201,
      );
    });

    it("ignores credential headers on a public route", async () => {
      const response = await running().app.request(
        "/auth/register",
        json(registration(), { authorization: "Bearer garbage", "x-api-key": "garbage" }),
        from(freshSource()),
      );
      expect(response.status).toBe(201);
    });
  });

  describe("POST /auth/token", () => {
    it("exchanges e-mail and password for a bearer token that authenticates", async () => {
      const { email, password, accountId } = accounts.pro!;
      const source = freshSource();
      const response = await running().app.request("/auth/token", json({ email, password }), from(source));
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-store");
      const issued = await bodyOf(response);
      expect(issued).toEqual({
        access_token: expect.any(String),
        token_type: "bearer",
        expires_in: expect.any(Number),
      });
      // expires_in is the token's own lifetime (identity's default: an hour).
      const claims = JSON.parse(Buffer.from(issued.access_token.split(".")[1], "base64url").toString());
      expect(claims.exp - claims.iat).toBe(issued.expires_in);
      expect(claims).toMatchObject({ sub: accountId, tier: "pro", iat: clock.now().getTime() / 1000 });
      const seen = await me(source, { authorization: `Bearer ${issued.access_token}` });
      expect(seen.status).toBe(200);
      const body = await bodyOf(seen);
      expect(body.account.id).toBe(accountId);
      expect(body.limits).toEqual({ requests_per_minute: 1_000, requests_per_day: 10_000 });
    });

    it("answers a wrong password 401, counted against the address's failed-authentication limit", async () => {
      const response = await running().app.request(
        "/auth/token",
        json({ email: accounts.pro!.email, password: "wrong" }),
        from(freshSource()),
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
      // An unknown address reads the same, so the answer does not tell which accounts exist.
      const unknown = await running().app.request(
        "/auth/token",
        json({ email: "nobody-here@example.org", password: "wrong" }),
        from(freshSource()),
      );
      expect(unknown.status).toBe(401);
      expect((await bodyOf(unknown)).error.message).toBe("wrong e-mail or password");
    });

    it("rejects unknown fields (strict bodies)", async () => {
      const response = await running().app.request(
        "/auth/token",
        json({ email: "a@b.co", password: "x", grant_type: "password" }),
        from(freshSource()),
      );
      expect(response.status).toBe(422);
      expect((await bodyOf(response)).error.details.errors).toEqual([
        { field: "grant_type", code: "invalid_value", message: "unknown field" },
      ]);
    });
  });

  describe("GET /auth/me", () => {
    it.each([
      ["standard", 100, 1_000],
      ["pro", 1_000, 10_000],
      ["ai_agent", 500, 5_000],
    ] as const)("returns the account and its tier's limits (%s)", async (tier, perMinute, perDay) => {
      const account = accounts[tier]!;
      const response = await me(freshSource(), { "x-api-key": account.apiKey });
      expect(response.status).toBe(200);
      expect(await bodyOf(response)).toEqual({
        account: expect.objectContaining({ id: account.accountId, email: account.email, tier }),
        limits: { requests_per_minute: perMinute, requests_per_day: perDay },
      });
    });
  });
});
