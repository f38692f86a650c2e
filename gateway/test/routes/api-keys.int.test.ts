import { describe, expect, it } from "vitest";
import { isWellFormedApiKey } from "../../src/lib/api-key-format.js";
import { type SignedUp, realServicesAvailable, realServicesOfBlock } from "../support/real-services.js";
import { bodyOf } from "../support/requests.js";

const SOURCE = "198.51.100.50";

describe.skipIf(!(await realServicesAvailable()))("the API key routes on the real services", () => {
  let owner: SignedUp | undefined;
  let other: SignedUp | undefined;
  const { running, call } = realServicesOfBlock({
    source: SOURCE,
    key: () => owner!.apiKey,
    prepare: async (petri) => {
      owner = await petri.signUp({ tier: "pro" });
      other = await petri.signUp({ tier: "pro" });
    },
  });
  const ids = (page: { api_keys: Array<{ id: string }> }) => page.api_keys.map((key) => key.id);

  it("POST /auth/api-keys creates a key whose secret is shown once and works at once", async () => {
    const response = await call("POST", "/auth/api-keys", { name: "ci" });
    expect(response.status).toBe(201);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const created = await bodyOf(response);
    expect(created.api_key).toMatchObject({ name: "ci", revoked_at: null });
    expect(isWellFormedApiKey(created.api_key_secret)).toBe(true);

    const listed = await bodyOf(await call("GET", "/auth/api-keys?limit=100"));
    expect(ids(listed)).toContain(created.api_key.id);
    expect(JSON.stringify(listed)).not.toContain(created.api_key_secret);
    const me = await call("GET", "/auth/me", undefined, created.api_key_secret);
    expect(me.status).toBe(200);
    expect((await bodyOf(me)).account.id).toBe(owner!.accountId);
  });

  it("POST /auth/api-keys validates the name, and creates nothing when refused", async () => {
    const before = (await bodyOf(await call("GET", "/auth/api-keys"))).total;
    for (const body of [{}, { name: "" }, { name: "x".repeat(101) }, { name: "ok", scopes: ["all"] }]) {
      const response = await call("POST", "/auth/api-keys", body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect((await bodyOf(response)).error.code).toBe("validation_failed");
    }
    expect((await bodyOf(await call("GET", "/auth/api-keys"))).total).toBe(before);
  });

  it("GET /auth/api-keys pages with limit 1..100 (default 20) and offset; 25 active keys at most", async () => {
    const { apiKey } = await running().signUp(); // two keys: the registration's and the sign-up's
    const as = (method: string, path: string, body?: unknown) => call(method, path, body, apiKey);
    const created: string[] = [];
    for (let i = 0; i < 23; i += 1) {
      const response = await as("POST", "/auth/api-keys", { name: `key ${i}` });
      expect(response.status).toBe(201);
      created.push((await bodyOf(response)).api_key.id);
    }
    const full = await as("POST", "/auth/api-keys", { name: "one too many" });
    expect(full.status).toBe(409);
    expect((await bodyOf(full)).error).toMatchObject({
      code: "api_key_limit_reached",
      details: { limit: 25 },
    });
    // One the loop created, never the key these calls authenticate with (the keys share one
    // creation time on the test clock, so the list's first is any of them).
    expect((await as("DELETE", `/auth/api-keys/${created[0]}`)).status).toBe(200);
    expect((await as("POST", "/auth/api-keys", { name: "the last" })).status).toBe(201);

    const first = await bodyOf(await as("GET", "/auth/api-keys"));
    expect(first).toMatchObject({ total: 25, limit: 20, offset: 0 });
    expect(first.api_keys).toHaveLength(20);
    const second = await bodyOf(await as("GET", "/auth/api-keys?limit=10&offset=20"));
    expect(second).toMatchObject({ total: 25, limit: 10, offset: 20 });
    expect(second.api_keys).toHaveLength(5);
    const all = await bodyOf(await as("GET", "/auth/api-keys?limit=100"));
    expect(all.api_keys).toHaveLength(25);
    // The pages are the whole list, each key once.
    expect(new Set([...ids(first), ...ids(second)])).toEqual(new Set(ids(all)));
    const withRevoked = await bodyOf(
      await as("GET", "/auth/api-keys?include_revoked=true&limit=10&offset=20"),
    );
    expect(withRevoked).toMatchObject({ total: 26, limit: 10, offset: 20 });
    expect(withRevoked.api_keys).toHaveLength(6);
  });

  it.each(["-1", "0", "101", "1e9", "1000000000", "2.5", "abc", ""])(
    "GET /auth/api-keys?limit=%s is 422",
    async (limit) => {
      const response = await call("GET", `/auth/api-keys?limit=${limit}`);
      expect(response.status).toBe(422);
      const body = await bodyOf(response);
      expect(body.error.code).toBe("validation_failed");
      expect(body.error.details.errors[0].field).toBe("limit");
    },
  );

  it("GET /auth/api-keys?offset=-1 is 422", async () => {
    expect((await call("GET", "/auth/api-keys?offset=-1")).status).toBe(422);
  });

  it("DELETE /auth/api-keys/{id} revokes the key, idempotently, and lists it only with include_revoked", async () => {
    const created = await bodyOf(await call("POST", "/auth/api-keys", { name: "old" }));
    const { api_key: key, api_key_secret: secret } = created;
    expect((await call("GET", "/auth/me", undefined, secret)).status).toBe(200);
    const revoke = () => call("DELETE", `/auth/api-keys/${key.id}`);
    const first = await revoke();
    expect(first.status).toBe(200);
    const revoked = (await bodyOf(first)).api_key;
    expect(revoked).toMatchObject({ id: key.id, revoked_at: running().clock.now().toISOString() });
    expect((await bodyOf(await revoke())).api_key).toEqual(revoked);

    expect((await call("GET", "/auth/me", undefined, secret)).status).toBe(401);
    expect(ids(await bodyOf(await call("GET", "/auth/api-keys?limit=100")))).not.toContain(key.id);
    expect(ids(await bodyOf(await call("GET", "/auth/api-keys?limit=100&include_revoked=true")))).toContain(
      key.id,
    );
  });

  it("DELETE of another account's key is 404, and the key still works", async () => {
    const theirs = await bodyOf(await call("POST", "/auth/api-keys", { name: "theirs" }, other!.apiKey));
    const response = await call("DELETE", `/auth/api-keys/${theirs.api_key.id}`);
    expect(response.status).toBe(404);
    expect((await bodyOf(response)).error.code).toBe("not_found");
    expect((await call("GET", "/auth/me", undefined, theirs.api_key_secret)).status).toBe(200);
  });
});
