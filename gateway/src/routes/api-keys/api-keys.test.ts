import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { FakeIdentity, bodyOf, from, gatewayFor, json } from "../../../test/support/fake-identity.js";
import { isWellFormedApiKey } from "../../lib/api-key-format.js";

const SOURCE = "198.51.100.50";

let identity: FakeIdentity;
let app: Awaited<ReturnType<typeof gatewayFor>>;
let accountId: string;
let apiKey: string;

beforeEach(async () => {
  identity = await FakeIdentity.create(new FakeClock("2026-03-02T10:00:00.000Z"));
  app = await gatewayFor(identity);
  ({
    account: { id: accountId },
    secret: apiKey,
  } = identity.addAccount());
});

const get = (path: string) => app.request(path, { headers: { "x-api-key": apiKey } }, from(SOURCE));

describe("API keys", () => {
  it("POST /auth/api-keys creates a key whose secret is shown once and works at once", async () => {
    const response = await app.request(
      "/auth/api-keys",
      json({ name: "ci" }, { "x-api-key": apiKey }),
      from(SOURCE),
    );
    expect(response.status).toBe(201);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const created = await bodyOf(response);
    expect(created.api_key).toMatchObject({ name: "ci", revoked_at: null });
    expect(isWellFormedApiKey(created.api_key_secret)).toBe(true);

    const listed = await bodyOf(await get("/auth/api-keys"));
    expect(JSON.stringify(listed)).not.toContain(created.api_key_secret);
    const me = await app.request(
      "/auth/me",
      { headers: { "x-api-key": created.api_key_secret } },
      from(SOURCE),
    );
    expect(me.status).toBe(200);
  });

  it("POST /auth/api-keys validates the name", async () => {
    for (const body of [{}, { name: "" }, { name: "x".repeat(101) }, { name: "ok", scopes: ["all"] }]) {
      const response = await app.request("/auth/api-keys", json(body, { "x-api-key": apiKey }), from(SOURCE));
      expect(response.status, JSON.stringify(body)).toBe(422);
    }
  });

  it("GET /auth/api-keys pages with limit 1..100 (default 20) and offset", async () => {
    for (let i = 0; i < 25; i += 1) identity.addKey(accountId, `key ${i}`);
    const first = await bodyOf(await get("/auth/api-keys"));
    expect(first).toMatchObject({ total: 26, limit: 20, offset: 0 });
    expect(first.api_keys).toHaveLength(20);
    const second = await bodyOf(await get("/auth/api-keys?limit=10&offset=20"));
    expect(second).toMatchObject({ total: 26, limit: 10, offset: 20 });
    expect(second.api_keys).toHaveLength(6);
    expect((await bodyOf(await get("/auth/api-keys?limit=100"))).api_keys).toHaveLength(26);
  });

  it.each(["-1", "0", "101", "1e9", "1000000000", "2.5", "abc", ""])(
    "GET /auth/api-keys?limit=%s is 422",
    async (limit) => {
      const response = await get(`/auth/api-keys?limit=${limit}`);
      expect(response.status).toBe(422);
      const body = await bodyOf(response);
      expect(body.error.code).toBe("validation_failed");
      expect(body.error.details.errors[0].field).toBe("limit");
      expect(identity.count("ListApiKeys")).toBe(0);
    },
  );

  it("GET /auth/api-keys?offset=-1 is 422", async () => {
    expect((await get("/auth/api-keys?offset=-1")).status).toBe(422);
  });

  it("DELETE /auth/api-keys/{id} revokes the key, idempotently, and lists it only with include_revoked", async () => {
    const { key, secret } = identity.addKey(accountId, "old");
    expect((await app.request("/auth/me", { headers: { "x-api-key": secret } }, from(SOURCE))).status).toBe(
      200,
    );
    const revoke = () =>
      app.request(
        `/auth/api-keys/${key.id}`,
        { method: "DELETE", headers: { "x-api-key": apiKey } },
        from(SOURCE),
      );
    const first = await revoke();
    expect(first.status).toBe(200);
    const revoked = (await bodyOf(first)).api_key;
    expect(revoked).toMatchObject({ id: key.id, revoked_at: "2026-03-02T10:00:00.000Z" });
    expect((await bodyOf(await revoke())).api_key).toEqual(revoked);

    expect((await app.request("/auth/me", { headers: { "x-api-key": secret } }, from(SOURCE))).status).toBe(
      401,
    );
    const active = (await bodyOf(await get("/auth/api-keys"))).api_keys.map((k: { id: string }) => k.id);
    expect(active).not.toContain(key.id);
    const all = (await bodyOf(await get("/auth/api-keys?include_revoked=true"))).api_keys.map(
      (k: { id: string }) => k.id,
    );
    expect(all).toContain(key.id);
  });

  it("DELETE of another account's key is 404", async () => {
    const other = identity.addAccount();
    const { key } = identity.addKey(other.account.id, "theirs");
    const response = await app.request(
      `/auth/api-keys/${key.id}`,
      { method: "DELETE", headers: { "x-api-key": apiKey } },
      from(SOURCE),
    );
    expect(response.status).toBe(404);
    expect((await bodyOf(response)).error.code).toBe("not_found");
  });
});
