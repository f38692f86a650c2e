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
