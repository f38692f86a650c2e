import { Role, Tier } from "@petri/contracts/identity";
import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { FakeIdentity, bodyOf, from, gatewayFor } from "../../../test/support/fake-identity.js";

const SOURCE = "198.51.100.60";

let clock: FakeClock;
let identity: FakeIdentity;
let app: Awaited<ReturnType<typeof gatewayFor>>;
let staffKey: string;

beforeEach(async () => {
  clock = new FakeClock("2026-03-02T10:00:00.000Z");
  identity = await FakeIdentity.create(clock);
  app = await gatewayFor(identity);
  staffKey = identity.addAccount({ role: Role.STAFF }).secret;
});

const patch = (accountId: string, body: unknown, key = staffKey) =>
  app.request(
    `/admin/accounts/${accountId}`,
    {
      method: "PATCH",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify(body),
    },
    from(SOURCE),
  );

describe("PATCH /admin/accounts/{account_id}", () => {
  it("changes role and tier for staff", async () => {
    const { account } = identity.addAccount();
    const response = await patch(account.id, { role: "operator", tier: "ai_agent" });
    expect(response.status).toBe(200);
    expect((await bodyOf(response)).account).toMatchObject({
      id: account.id,
      role: "operator",
      tier: "ai_agent",
    });
    expect(identity.accounts.get(account.id)!.account.tier).toBe(Tier.AI_AGENT);
  });

  it("is 403 for a requester, before the body is even validated", async () => {
    const { account, secret } = identity.addAccount();
    for (const body of [{ role: "staff" }, { nonsense: true }]) {
      const response = await patch(account.id, body, secret);
      expect(response.status).toBe(403);
      expect((await bodyOf(response)).error).toMatchObject({
        code: "forbidden",
        details: { required_roles: ["staff"] },
      });
    }
    expect(identity.count("UpdateAccountAccess")).toBe(0);
  });

  it("validates the body: something to change, known values, no unknown fields", async () => {
    const { account } = identity.addAccount();
    for (const body of [{}, { role: "system" }, { tier: "gold" }, { role: "staff", email: "x@y.z" }]) {
      expect((await patch(account.id, body)).status, JSON.stringify(body)).toBe(422);
    }
  });

  it("is 404 for an unknown account", async () => {
    const response = await patch("usr_nobody", { tier: "pro" });
    expect(response.status).toBe(404);
  });
});

describe("POST /admin/signing-keys/rotate", () => {
  it("rotates, and tokens signed with the new key verify at once", async () => {
    const { account } = identity.addAccount();
    const before = await identity.token(account.id);
    const me = (token: string) =>
      app.request("/auth/me", { headers: { authorization: `Bearer ${token}` } }, from(SOURCE));
    expect((await me(before)).status).toBe(200);

    const response = await app.request(
      "/admin/signing-keys/rotate",
      { method: "POST", headers: { "x-api-key": staffKey } },
      from(SOURCE),
    );
    expect(response.status).toBe(200);
    const { active_kid } = await bodyOf(response);
    expect(active_kid).toBe(identity.activeKey.kid);

    const after = await identity.token(account.id);
    expect((await me(after)).status).toBe(200);
    expect((await me(before)).status).toBe(200); // the old key still verifies its tokens
  });
});

describe("the /staff paths, deprecated aliases of /admin", () => {
  it("PATCH /staff/accounts/{id} and POST /staff/signing-keys/rotate still work", async () => {
    const { account } = identity.addAccount();
    const patched = await app.request(
      `/staff/accounts/${account.id}`,
      {
        method: "PATCH",
        headers: { "x-api-key": staffKey, "content-type": "application/json" },
        body: JSON.stringify({ tier: "pro" }),
      },
      from(SOURCE),
    );
    expect(patched.status).toBe(200);
    expect((await bodyOf(patched)).account.tier).toBe("pro");
    const rotated = await app.request(
      "/staff/signing-keys/rotate",
      { method: "POST", headers: { "x-api-key": staffKey } },
      from(SOURCE),
    );
    expect(rotated.status).toBe(200);
    expect(identity.count("RotateSigningKey")).toBe(1);
  });
});

describe("the custom tier", () => {
  const custom = { tier: "custom", rate_limits: { per_minute: 3, per_day: 4 } };
  const get = (accountId: string, key = staffKey) =>
    app.request(`/admin/accounts/${accountId}`, { headers: { "x-api-key": key } }, from(SOURCE));

  it("sets an account's own limits, which staff see and the account's requests are limited by", async () => {
    const { account, secret } = identity.addAccount();
    const response = await patch(account.id, custom);
    expect(response.status).toBe(200);
    expect((await bodyOf(response)).account).toMatchObject({
      id: account.id,
      tier: "custom",
      rate_limits: { per_minute: 3, per_day: 4 },
    });
    const seen = await get(account.id);
    expect(seen.status).toBe(200);
    expect((await bodyOf(seen)).account.rate_limits).toEqual({ per_minute: 3, per_day: 4 });

    const me = () => app.request("/auth/me", { headers: { "x-api-key": secret } }, from(SOURCE));
    const first = await me();
    expect(first.status).toBe(200);
    expect(first.headers.get("x-ratelimit-limit")).toBe("3");
    // The account's own view: its tier and limits, as for any tier.
    const body = await bodyOf(first);
    expect(body.account.tier).toBe("custom");
    expect(body.account.rate_limits).toBeUndefined();
    expect(body.limits).toEqual({ requests_per_minute: 3, requests_per_day: 4 });
    expect((await me()).status).toBe(200);
    expect((await me()).status).toBe(200);
    const refused = await me();
    expect(refused.status).toBe(429);
    expect((await bodyOf(refused)).error.code).toBe("rate_limit_exceeded");
  });

  it("another tier clears the limits, and they appear only with the custom tier", async () => {
    const { account } = identity.addAccount();
    await patch(account.id, custom);
    const response = await patch(account.id, { tier: "pro" });
    expect(response.status).toBe(200);
    const json = (await bodyOf(response)).account;
    expect(json.tier).toBe("pro");
    expect(json).not.toHaveProperty("rate_limits");
    expect(identity.accounts.get(account.id)!.account.rateLimits).toBeUndefined();
  });

  it("refuses rate_limits without the custom tier and the custom tier without them, naming the field", async () => {
    const { account } = identity.addAccount();
    const cases: Array<[unknown, string, string]> = [
      [{ tier: "custom" }, "rate_limits", "missing_required"],
      [{ tier: "pro", rate_limits: { per_minute: 3, per_day: 4 } }, "rate_limits", "invalid_value"],
      [{ role: "operator", rate_limits: { per_minute: 3, per_day: 4 } }, "rate_limits", "invalid_value"],
      [
        { tier: "custom", rate_limits: { per_minute: 0, per_day: 4 } },
        "rate_limits.per_minute",
        "invalid_value",
      ],
      [
        { tier: "custom", rate_limits: { per_minute: 1_000_001, per_day: 2_000_000 } },
        "rate_limits.per_minute",
        "invalid_value",
      ],
      [
        { tier: "custom", rate_limits: { per_minute: 1.5, per_day: 4 } },
        "rate_limits.per_minute",
        "invalid_value",
      ],
      [
        { tier: "custom", rate_limits: { per_minute: 10, per_day: 9 } },
        "rate_limits.per_day",
        "invalid_value",
      ],
      [
        { tier: "custom", rate_limits: { per_minute: 10, per_day: 1_000_000_001 } },
        "rate_limits.per_day",
        "invalid_value",
      ],
      [{ tier: "custom", rate_limits: { per_minute: 10 } }, "rate_limits.per_day", "missing_required"],
      [
        { tier: "custom", rate_limits: { per_minute: 10, per_day: 20, burst: 5 } },
        "rate_limits.burst",
        "invalid_value",
      ],
    ];
    for (const [body, field, code] of cases) {
      const response = await patch(account.id, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      const { error } = await bodyOf(response);
      expect(error.code).toBe("validation_failed");
      expect(error.details.errors, JSON.stringify(body)).toContainEqual(
        expect.objectContaining({ field, code }),
      );
    }
    expect(identity.count("UpdateAccountAccess")).toBe(0);
    // The bounds themselves are accepted.
    expect(
      (await patch(account.id, { tier: "custom", rate_limits: { per_minute: 1, per_day: 1 } })).status,
    ).toBe(200);
    expect(
      (
        await patch(account.id, {
          tier: "custom",
          rate_limits: { per_minute: 1_000_000, per_day: 1_000_000_000 },
        })
      ).status,
    ).toBe(200);
  });

  it("GET /admin/accounts/{id} is for staff only, and 404 for an unknown account", async () => {
    const { account, secret } = identity.addAccount();
    expect((await get(account.id, secret)).status).toBe(403);
    const own = await get(account.id);
    expect((await bodyOf(own)).account).not.toHaveProperty("rate_limits");
    expect((await get("usr_nobody")).status).toBe(404);
  });
});
