/**
 * GET /auth/me answers from a cached view of the caller's account, and never serves it past a
 * change the gateway can know of: a raised credentials epoch (role, tier, password) ends it
 * when it ends the account's older tokens, this gateway's own access changes end it at once,
 * and a custom tier's new limits made elsewhere show within the view's lifetime.
 */
import { Role, Tier } from "@petri/contracts/identity";
import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { FakeIdentity, bodyOf, from, gatewayFor } from "../test/support/fake-identity.js";

const SOURCE = "198.51.100.60";
type App = Awaited<ReturnType<typeof gatewayFor>>;

let clock: FakeClock;
let identity: FakeIdentity;
let app: App;
let admin: string;
let member: { id: string; secret: string };

beforeEach(async () => {
  clock = new FakeClock("2026-03-02T10:00:00.000Z");
  identity = await FakeIdentity.create(clock);
  app = await gatewayFor(identity);
  admin = await identity.token(identity.addAccount({ role: Role.STAFF }).account.id);
  const added = identity.addAccount({ role: Role.STAFF, tier: Tier.PRO });
  member = { id: added.account.id, secret: added.secret };
});

async function me(gateway: App = app, secret = member.secret) {
  const response = await gateway.request("/auth/me", { headers: { "x-api-key": secret } }, from(SOURCE));
  expect(response.status).toBe(200);
  return bodyOf(response);
}

async function changeAccess(body: Record<string, unknown>, gateway: App = app) {
  const response = await gateway.request(
    `/admin/accounts/${member.id}`,
    {
      method: "PATCH",
      headers: { "content-type": "application/json", authorization: `Bearer ${admin}` },
      body: JSON.stringify(body),
    },
    from(SOURCE),
  );
  expect(response.status).toBe(200);
}

const customLimits = (perMinute: number) => ({
  tier: "custom",
  rate_limits: { per_minute: perMinute, per_day: perMinute * 100 },
});

/** Lets the revocation watch deliver what identity published. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("GET /auth/me's account view", () => {
  it("asks identity once for repeated requests, and each account sees its own", async () => {
    const first = await me();
    expect(await me()).toEqual(first);
    expect(identity.count("GetAccount")).toBe(1);
    expect(first.account).toMatchObject({ id: member.id, role: "staff", tier: "pro" });

    const other = identity.addAccount();
    expect((await me(app, other.secret)).account.id).toBe(other.account.id);
    expect((await me()).account.id).toBe(member.id);
    expect(identity.count("GetAccount")).toBe(2);
  });

  it("shows a role change made through another gateway as soon as the epoch reaches this one", async () => {
    const elsewhere = await gatewayFor(identity);
    expect((await me()).account.role).toBe("staff");

    await changeAccess({ role: "requester" }, elsewhere);
    await settle();

    expect((await me()).account.role).toBe("requester");
    expect(identity.count("GetAccount")).toBe(2);
  });

  it("shows a role change whose event was lost from the revocation state's periodic load", async () => {
    const patient = await gatewayFor(identity, { accountViewTtlMs: 3_600_000 });
    const elsewhere = await gatewayFor(identity);
    expect((await me(patient)).account.role).toBe("staff");
    identity.eventsLost = true;
    await changeAccess({ role: "requester" }, elsewhere);
    // Until the state learns of the epoch, the view stands as the account's tokens do.
    expect((await me(patient)).account.role).toBe("staff");

    await clock.set(clock.now().getTime() + 30_000);
    let role = "staff";
    for (let attempt = 0; attempt < 50 && role !== "requester"; attempt += 1) {
      role = (await me(patient)).account.role;
      if (role !== "requester") await settle();
    }
    expect(role).toBe("requester");
  });

  it("shows new custom limits set through this gateway at once", async () => {
    await changeAccess(customLimits(5_000));
    expect((await me()).limits).toEqual({ requests_per_minute: 5_000, requests_per_day: 500_000 });

    await changeAccess(customLimits(7_000)); // same tier: no epoch is raised
    expect((await me()).limits).toEqual({ requests_per_minute: 7_000, requests_per_day: 700_000 });
  });

  it("shows new custom limits set through another gateway once the view expired", async () => {
    const elsewhere = await gatewayFor(identity);
    await changeAccess(customLimits(5_000), elsewhere);
    await settle();
    expect((await me()).limits.requests_per_minute).toBe(5_000);

    await changeAccess(customLimits(7_000), elsewhere);
    await settle();
    expect((await me()).limits.requests_per_minute).toBe(5_000);
    await clock.set(clock.now().getTime() + 5_000);
    expect((await me()).limits.requests_per_minute).toBe(7_000);
  });
});
