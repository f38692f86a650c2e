/**
 * Revoked rights end at once: a credentials epoch raised by identity (role, tier or password
 * change) refuses the account's older access tokens and its cached API-key answers on every
 * gateway the event reaches; POST /auth/token/revoke ends one token; a lost event is caught by
 * the periodic load; a gateway that could never load the state answers 503, not 200.
 */
import { Role } from "@petri/contracts/identity";
import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { FakeIdentity, bodyOf, from, gatewayFor, json } from "../test/support/fake-identity.js";

const SOURCE = "198.51.100.20";
type App = Awaited<ReturnType<typeof gatewayFor>>;

let clock: FakeClock;
let identity: FakeIdentity;
let app: App;
let admin: { id: string; token: string };
let demoted: { id: string; secret: string; token: string };

beforeEach(async () => {
  clock = new FakeClock("2026-03-02T10:00:00.000Z");
  identity = await FakeIdentity.create(clock);
  app = await gatewayFor(identity);
  const boss = identity.addAccount({ role: Role.STAFF });
  admin = { id: boss.account.id, token: await identity.token(boss.account.id) };
  const staffer = identity.addAccount({ role: Role.STAFF });
  demoted = {
    id: staffer.account.id,
    secret: staffer.secret,
    token: await identity.token(staffer.account.id),
  };
});

type Credential = { authorization: string } | { "x-api-key": string };
const bearer = (token: string): Credential => ({ authorization: `Bearer ${token}` });
const apiKey = (secret: string): Credential => ({ "x-api-key": secret });

/**
 * A staff-only operation with an empty body: staff get 422 (past the role check), any other
 * role 403, a refused credential 401. Nothing changes either way.
 */
const adminProbe = (credential: Credential, gateway = app) =>
  gateway.request(
    "/admin/accounts/usr_00000000000000000000000000",
    { method: "PATCH", headers: { "content-type": "application/json", ...credential }, body: "{}" },
    from(SOURCE),
  );
const me = (credential: Credential, gateway = app) =>
  gateway.request("/auth/me", { headers: credential }, from(SOURCE));

async function demote(gateway = app) {
  const response = await gateway.request(
    `/admin/accounts/${demoted.id}`,
    {
      method: "PATCH",
      headers: { "content-type": "application/json", ...bearer(admin.token) },
      body: JSON.stringify({ role: "requester" }),
    },
    from(SOURCE),
  );
  expect(response.status).toBe(200);
}

describe("a raised credentials epoch", () => {
  it("refuses the demoted account's older token and re-resolves its cached API key, at once", async () => {
    expect((await adminProbe(bearer(demoted.token))).status).toBe(422);
    expect((await adminProbe(apiKey(demoted.secret))).status).toBe(422); // now cached as staff

    await demote();

    expect((await adminProbe(bearer(demoted.token))).status).toBe(401);
    expect((await adminProbe(apiKey(demoted.secret))).status).toBe(403);
    expect(identity.count("AuthenticateApiKey")).toBe(2); // the cached staff answer was dropped
    // A token issued after the change carries the new epoch and the new role.
    const fresh = await identity.token(demoted.id);
    expect((await adminProbe(bearer(fresh))).status).toBe(403);
    expect((await me(bearer(fresh))).status).toBe(200);
    // Other accounts are untouched.
    expect((await adminProbe(bearer(admin.token))).status).toBe(422);
  });

  it("reaches every gateway subscribed, not only the one the change went through", async () => {
    const other = await gatewayFor(identity);
    expect((await adminProbe(bearer(demoted.token), other)).status).toBe(422);
    expect((await adminProbe(apiKey(demoted.secret), other)).status).toBe(422);

    await demote(app);

    expect((await adminProbe(bearer(demoted.token), other)).status).toBe(401);
    expect((await adminProbe(apiKey(demoted.secret), other)).status).toBe(403);
  });

  it("is applied from the periodic load when the event is lost", async () => {
    expect((await adminProbe(bearer(demoted.token))).status).toBe(422);
    identity.eventsLost = true;
    await demote();
    // The event never came: within the refresh interval the old state still answers.
    expect((await adminProbe(bearer(demoted.token))).status).toBe(422);

    await clock.set(clock.now().getTime() + 30_000);
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 401; attempt += 1) {
      status = (await adminProbe(bearer(demoted.token))).status;
      if (status !== 401) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(status).toBe(401);
    expect(identity.count("ListRevocations")).toBe(2);
  });

  it("is reloaded when the watch ends, so what was revoked without a watch is applied", async () => {
    expect((await adminProbe(bearer(demoted.token))).status).toBe(422);
    identity.eventsLost = true;
    identity.endWatches();
    await demote(); // while no watch was open
    identity.eventsLost = false;
    let status = 0;
    // The gateway re-opens the watch and reloads after a short pause; no clock moves here.
    for (let attempt = 0; attempt < 100 && status !== 401; attempt += 1) {
      status = (await adminProbe(bearer(demoted.token))).status;
      if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe(401);
    expect(identity.count("WatchRevocations")).toBe(2);
  });

  it("is loaded before the first credential is accepted; a gateway that cannot load it answers 503", async () => {
    identity.down.add("ListRevocations");
    const cold = await gatewayFor(identity);
    for (const credential of [bearer(demoted.token), apiKey(demoted.secret)]) {
      const response = await me(credential, cold);
      expect(response.status).toBe(503);
      expect((await bodyOf(response)).error.code).toBe("unavailable");
    }
    identity.down.delete("ListRevocations");
    expect((await me(bearer(demoted.token), cold)).status).toBe(200);
  });

  it("ends the older tokens on a password change (POST /auth/password); API keys stay valid", async () => {
    const user = identity.addAccount({ password: "the old password" });
    const token = await identity.token(user.account.id);
    const change = (current: string) =>
      app.request(
        "/auth/password",
        json({ current_password: current, new_password: "the new password 1" }, bearer(token) as never),
        from(SOURCE),
      );

    const wrong = await change("not the password");
    expect(wrong.status).toBe(401);
    expect((await me(bearer(token))).status).toBe(200);

    const changed = await change("the old password");
    expect(changed.status).toBe(200);
    expect(await bodyOf(changed)).toEqual({ password_changed: true });
    expect((await me(bearer(token))).status).toBe(401);
    expect((await me(apiKey(user.secret))).status).toBe(200);
    expect((await me(bearer(await identity.token(user.account.id)))).status).toBe(200);
  });

  it("limits guesses of the current password per account (429 after 20), without locking its logins", async () => {
    const user = identity.addAccount({ password: "the right password" });
    const token = await identity.token(user.account.id);
    const guess = () =>
      app.request(
        "/auth/password",
        json({ current_password: "a guess", new_password: "the new password 2" }, bearer(token) as never),
        from(SOURCE),
      );
    for (let i = 0; i < 20; i++) expect((await guess()).status).toBe(401);
    expect((await guess()).status).toBe(429);
    expect((await me(bearer(token))).status).toBe(200);
  });

  it("validates the password change body (422 validation_failed)", async () => {
    const response = await app.request(
      "/auth/password",
      json({ current_password: "x" }, bearer(demoted.token) as never),
      from(SOURCE),
    );
    expect(response.status).toBe(422);
    expect((await bodyOf(response)).error.details.errors).toEqual([
      expect.objectContaining({ field: "new_password" }),
    ]);
  });
});

describe("a revoked API key", () => {
  it("is refused at once by every gateway, not only the one it was revoked through", async () => {
    const other = await gatewayFor(identity);
    const key = identity.addKey(demoted.id, "second");
    expect((await me(apiKey(key.secret), other)).status).toBe(200); // cached on the other gateway
    const revoked = await app.request(
      `/auth/api-keys/${key.key.id}`,
      { method: "DELETE", headers: bearer(demoted.token) },
      from(SOURCE),
    );
    expect(revoked.status).toBe(200);
    expect((await me(apiKey(key.secret), other)).status).toBe(401);
    expect((await me(apiKey(demoted.secret), other)).status).toBe(200); // the account's other key
  });
});

describe("POST /auth/token/revoke", () => {
  const revoke = (token: string, gateway = app) =>
    gateway.request("/auth/token/revoke", json({ token }), from(SOURCE));

  it("ends the token on every gateway, and only that token", async () => {
    const other = await gatewayFor(identity);
    const sibling = await identity.token(demoted.id);
    expect((await me(bearer(demoted.token), other)).status).toBe(200);

    const response = await revoke(demoted.token);
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual({});
    expect(identity.count("RevokeAccessToken")).toBe(1);

    expect((await me(bearer(demoted.token))).status).toBe(401);
    expect((await me(bearer(demoted.token), other)).status).toBe(401);
    expect((await me(bearer(sibling))).status).toBe(200);
    expect((await me(apiKey(demoted.secret))).status).toBe(200);
  });

  it("answers 200 for an unknown, malformed, expired or already revoked token, telling nothing", async () => {
    const expired = await identity.token(demoted.id, { ttlSeconds: 60 });
    await revoke(demoted.token);
    await clock.set(clock.now().getTime() + 120_000);
    for (const token of ["not-a-token", "a.b.c", expired, demoted.token]) {
      const response = await revoke(token);
      expect(response.status).toBe(200);
      expect(await bodyOf(response)).toEqual({});
    }
    expect(identity.count("RevokeAccessToken")).toBe(1);
  });

  it("refuses a body without a token (422)", async () => {
    const response = await app.request("/auth/token/revoke", json({}), from(SOURCE));
    expect(response.status).toBe(422);
    expect((await bodyOf(response)).error.details.errors[0].field).toBe("token");
  });
});
