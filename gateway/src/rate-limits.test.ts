import { QuotaPolicy, Tier } from "@petri/contracts/identity";
import { metricSampler } from "@petri/fixtures/service-kit";
import { metricsRegistry } from "@petri/service-kit";
import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { MAX_TOKENS_PER_DRAW } from "./lib/quota-leases.js";
import {
  ANONYMOUS_PER_MINUTE,
  FakeIdentity,
  TIER_QUOTA,
  bodyOf,
  from,
  gatewayFor,
} from "../test/support/fake-identity.js";

const metricSample = metricSampler(metricsRegistry);

const SOURCE = "198.51.100.20";
const START = "2026-03-02T10:00:00.000Z";
const epochSeconds = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

let clock: FakeClock;
let identity: FakeIdentity;

beforeEach(async () => {
  clock = new FakeClock(START);
  identity = await FakeIdentity.create(clock);
});

type App = Awaited<ReturnType<typeof gatewayFor>>;
const me = (app: App, headers: Record<string, string>) => app.request("/auth/me", { headers }, from(SOURCE));

function headersOf(response: Response) {
  return {
    limit: Number(response.headers.get("x-ratelimit-limit")),
    remaining: Number(response.headers.get("x-ratelimit-remaining")),
    reset: Number(response.headers.get("x-ratelimit-reset")),
  };
}

describe("per-account rate limits", () => {
  it.each([
    ["standard", Tier.STANDARD, 100],
    ["pro", Tier.PRO, 1_000],
    ["ai_agent", Tier.AI_AGENT, 500],
  ])(
    "%s: L+20 requests in one minute give exactly L 2xx and 20 429, then the window resets",
    async (name, tier, limit) => {
      const refusals = () =>
        metricSample("petri_rate_limit_refusals_total", { quota: "account", tier: name });
      const refusedBefore = await refusals();
      const app = await gatewayFor(identity);
      const { secret } = identity.addAccount({ tier });
      const statuses: number[] = [];
      for (let i = 0; i < limit + 20; i += 1) {
        const response = await me(app, { "x-api-key": secret });
        statuses.push(response.status);
        const headers = headersOf(response);
        expect(headers.limit).toBe(limit);
        expect(headers.reset).toBe(epochSeconds("2026-03-02T10:01:00.000Z"));
        if (response.status === 429) {
          expect(response.headers.get("retry-after")).toBe("60");
          expect(headers.remaining).toBe(0);
          expect(await bodyOf(response)).toEqual({
            error: {
              code: "rate_limit_exceeded",
              message: expect.any(String),
              details: { limit, reset: headers.reset, window: "minute" },
            },
          });
        } else {
          expect(headers.remaining).toBe(limit - 1 - i);
        }
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(limit);
      expect(statuses.filter((s) => s === 429)).toHaveLength(20);
      expect(statuses.slice(0, limit).every((s) => s === 200)).toBe(true);
      expect(await refusals()).toBe(refusedBefore + 20);

      await clock.advance(30_000);
      const stillLimited = await me(app, { "x-api-key": secret });
      expect(stillLimited.status).toBe(429);
      expect(stillLimited.headers.get("retry-after")).toBe("30");

      await clock.advance(30_000);
      const fresh = await me(app, { "x-api-key": secret });
      expect(fresh.status).toBe(200);
      expect(headersOf(fresh)).toEqual({
        limit,
        remaining: limit - 1,
        reset: epochSeconds("2026-03-02T10:02:00.000Z"),
      });
    },
  );

  it("reports the day window once it binds, and refuses the 1,001st request of the day until midnight", async () => {
    const app = await gatewayFor(identity);
    const { secret } = identity.addAccount({ tier: Tier.STANDARD });
    for (let minute = 0; minute < 10; minute += 1) {
      for (let i = 0; i < 95; i += 1) expect((await me(app, { "x-api-key": secret })).status).toBe(200);
      await clock.advance(60_000);
    }
    // 950 used: in a fresh minute the day window (50 left) binds, not the minute (100 left).
    const response = await me(app, { "x-api-key": secret });
    expect(response.status).toBe(200);
    expect(headersOf(response)).toEqual({
      limit: 1_000,
      remaining: 49,
      reset: epochSeconds("2026-03-03T00:00:00.000Z"),
    });
    for (let i = 0; i < 49; i += 1) expect((await me(app, { "x-api-key": secret })).status).toBe(200);
    const refused = await me(app, { "x-api-key": secret });
    expect(refused.status).toBe(429);
    expect(headersOf(refused)).toEqual({
      limit: 1_000,
      remaining: 0,
      reset: epochSeconds("2026-03-03T00:00:00.000Z"),
    });
    const secondsToMidnight = (new Date("2026-03-03T00:00:00Z").getTime() - clock.now().getTime()) / 1000;
    expect(Number(refused.headers.get("retry-after"))).toBe(Math.ceil(secondsToMidnight));
    expect((await bodyOf(refused)).error.details).toMatchObject({ limit: 1_000, window: "day" });
  });

  it("two gateway instances sharing identity admit exactly L together", async () => {
    const gateways = [await gatewayFor(identity), await gatewayFor(identity)];
    const { secret } = identity.addAccount({ tier: Tier.STANDARD });
    let admitted = 0;
    let refused = 0;
    for (let i = 0; i < 140; i += 1) {
      const response = await me(gateways[i % 2]!, { "x-api-key": secret });
      if (response.status === 200) admitted += 1;
      else if (response.status === 429) refused += 1;
    }
    expect(admitted).toBe(TIER_QUOTA[Tier.STANDARD].minute);
    expect(refused).toBe(40);
  });

  it("limits the account, not the credential: five keys and a token share one quota", async () => {
    const app = await gatewayFor(identity);
    const { account, secret } = identity.addAccount({ tier: Tier.STANDARD });
    const credentials: Record<string, string>[] = [
      { "x-api-key": secret },
      ...Array.from({ length: 4 }, (_, i) => ({ "x-api-key": identity.addKey(account.id, `k${i}`).secret })),
      { authorization: `Bearer ${await identity.token(account.id)}` },
    ];
    let admitted = 0;
    for (let i = 0; i < 150; i += 1) {
      if ((await me(app, credentials[i % credentials.length]!)).status === 200) admitted += 1;
    }
    expect(admitted).toBe(100);
  });

  it("never increases X-RateLimit-Remaining or X-RateLimit-Reset within a window", async () => {
    const app = await gatewayFor(identity);
    const { secret } = identity.addAccount({ tier: Tier.STANDARD });
    let previous = { remaining: Number.POSITIVE_INFINITY, reset: Number.POSITIVE_INFINITY };
    for (let i = 0; i < 200; i += 1) {
      const headers = headersOf(await me(app, { "x-api-key": secret }));
      expect(headers.remaining).toBeLessThanOrEqual(previous.remaining);
      expect(headers.reset).toBeLessThanOrEqual(previous.reset);
      previous = headers;
      if (i % 20 === 0) await clock.advance(1_000); // still within the minute
    }
  });

  it("adds no service call per request: quota comes from leases, keys from the cache", async () => {
    const app = await gatewayFor(identity);
    const { secret } = identity.addAccount({ tier: Tier.PRO });
    for (let i = 0; i < 300; i += 1) await me(app, { "x-api-key": secret });
    expect(identity.count("AuthenticateApiKey")).toBe(1);
    expect(identity.count("AcquireQuota")).toBeLessThan(40);
    // Unspent tokens are at most one draw's worth.
    expect(
      identity.grantedThisMinute(QuotaPolicy.ACCOUNT, [...identity.accounts.keys()].at(-1)!),
    ).toBeLessThanOrEqual(300 + MAX_TOKENS_PER_DRAW);
  });

  it("fails closed with 503 when identity cannot be asked for quota", async () => {
    const app = await gatewayFor(identity);
    const { secret } = identity.addAccount({ tier: Tier.STANDARD });
    identity.down.add("AcquireQuota");
    const response = await me(app, { "x-api-key": secret });
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(await bodyOf(response)).toMatchObject({ error: { code: "unavailable", details: {} } });
    expect(identity.count("GetAccount")).toBe(0);
    identity.down.delete("AcquireQuota");
    expect((await me(app, { "x-api-key": secret })).status).toBe(200);
  });
});

describe("anonymous and exempt requests", () => {
  it("limits requests without credentials per source address, also on public routes", async () => {
    const app = await gatewayFor(identity);
    const statuses: number[] = [];
    for (let i = 0; i < ANONYMOUS_PER_MINUTE + 5; i += 1) {
      const response = await app.request("/config", {}, from(SOURCE));
      statuses.push(response.status);
      expect(response.headers.get("x-ratelimit-limit")).toBe(String(ANONYMOUS_PER_MINUTE));
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(ANONYMOUS_PER_MINUTE);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    // Another address has its own quota, and so do unauthenticated 401s and 404s of this one.
    expect((await app.request("/config", {}, from("198.51.100.21"))).status).toBe(200);
    expect((await app.request("/nope", {}, from(SOURCE))).status).toBe(429);
  });

  it("exempts /health, /healthz and /readyz: no quota, no headers, even with identity down", async () => {
    const app = await gatewayFor(identity);
    identity.down.add("AcquireQuota");
    for (const path of ["/health", "/healthz", "/readyz"]) {
      for (let i = 0; i < 50; i += 1) {
        const response = await app.request(path, {}, from(SOURCE));
        expect(response.status).toBe(200);
        expect(response.headers.has("x-ratelimit-limit")).toBe(false);
      }
    }
    expect(identity.count("AcquireQuota")).toBe(0);
  });
});

describe("the source address of requests on one connection", () => {
  it("is the peer's for each request without X-Forwarded-For, and the header's (trusted) for each with it", async () => {
    const app = await gatewayFor(identity, { trustProxy: true });
    const connection = from(SOURCE); // one socket for every request below, as on a keep-alive connection
    const config = (headers: Record<string, string> = {}) => app.request("/config", { headers }, connection);
    expect((await config()).status).toBe(200);
    expect((await config({ "x-forwarded-for": "203.0.113.7" })).status).toBe(200);
    expect((await config()).status).toBe(200);
    expect((await config({ "x-forwarded-for": "203.0.113.8" })).status).toBe(200);
    for (const subject of [SOURCE, "203.0.113.7", "203.0.113.8"])
      expect(identity.grantedThisMinute(QuotaPolicy.ANONYMOUS, subject), subject).toBeGreaterThan(0);
  });
});
