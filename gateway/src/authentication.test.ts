import { QuotaPolicy, Role, Tier } from "@petri/contracts/identity";
import { FakeClock } from "@petri/testkit";
import { SignJWT, base64url, exportSPKI, generateKeyPair } from "jose";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_ACCOUNT_VIEW_TTL_MS } from "./lib/account-views.js";
import { AUDIENCE, FakeIdentity, ISSUER, bodyOf, from, gatewayFor } from "../test/support/fake-identity.js";

const ME = "/auth/me";
const SOURCE = "198.51.100.10";

let clock: FakeClock;
let identity: FakeIdentity;
let app: Awaited<ReturnType<typeof gatewayFor>>;
let accountId: string;
let apiKey: string;

beforeEach(async () => {
  clock = new FakeClock("2026-03-02T10:00:00.000Z");
  identity = await FakeIdentity.create(clock);
  app = await gatewayFor(identity);
  const created = identity.addAccount({ tier: Tier.PRO });
  accountId = created.account.id;
  apiKey = created.secret;
});

const bearer = (token: string, address = SOURCE) =>
  app.request(ME, { headers: { authorization: `Bearer ${token}` } }, from(address));
const withKey = (key: string, address = SOURCE) =>
  app.request(ME, { headers: { "x-api-key": key } }, from(address));

async function expectUnauthorized(response: Response) {
  expect(response.status).toBe(401);
  expect(response.headers.get("www-authenticate")).toMatch(/^Bearer realm="petri"/);
  expect(await bodyOf(response)).toEqual({
    error: { code: "unauthorized", message: expect.any(String), details: {} },
  });
}

function unsigned(header: object, claims: object): string {
  const part = (value: object) => base64url.encode(JSON.stringify(value));
  return `${part(header)}.${part(claims)}.`;
}

describe("Bearer access tokens", () => {
  it("accepts a valid token, verified locally after one key fetch", async () => {
    const token = await identity.token(accountId);
    for (let i = 0; i < 5; i += 1) expect((await bearer(token)).status).toBe(200);
    expect(identity.count("ListSigningKeys")).toBe(1);
  });

  it("checks a token's signature once; repeats are answered from the verified-token cache", async () => {
    const token = await identity.token(accountId);
    const other = await identity.token(accountId, { ttlSeconds: 120 });
    const signatureChecks = vi.spyOn(globalThis.crypto.subtle, "verify");
    try {
      // The first request also verifies the internal tokens of the calls behind it (once each).
      expect((await bearer(token)).status).toBe(200);
      const afterFirst = signatureChecks.mock.calls.length;
      for (let i = 0; i < 4; i += 1) expect((await bearer(token)).status).toBe(200);
      expect(signatureChecks).toHaveBeenCalledTimes(afterFirst);
      expect((await bearer(other)).status).toBe(200);
      expect(signatureChecks).toHaveBeenCalledTimes(afterFirst + 1);
    } finally {
      signatureChecks.mockRestore();
    }
  });

  it("refuses every token of the corpus with 401 and the error body", async () => {
    const now = Math.floor(clock.now().getTime() / 1000);
    const active = identity.activeKey;
    const other = await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true });
    const publicPem = new TextEncoder().encode(
      await exportSPKI(
        await crypto.subtle.importKey("jwk", active.publicJwk, { name: "Ed25519" }, true, ["verify"]),
      ),
    );
    const rawPublic = base64url.decode(active.publicJwk.x!);
    const claims = {
      iss: ISSUER,
      aud: AUDIENCE,
      sub: accountId,
      role: "requester",
      tier: "pro",
      iat: now,
      exp: now + 600,
    };
    const header = { alg: "EdDSA", typ: "at+jwt", kid: active.kid };

    const corpus: Record<string, string> = {
      "alg none": unsigned({ alg: "none", typ: "at+jwt", kid: active.kid }, claims),
      "alg none, no kid": unsigned({ alg: "none" }, claims),
      "wrong key, listed kid": await new SignJWT(claims).setProtectedHeader(header).sign(other.privateKey),
      "HS256 with the public key (PEM) as secret": await new SignJWT(claims)
        .setProtectedHeader({ ...header, alg: "HS256" })
        .sign(publicPem),
      "HS256 with the raw public key as secret": await new SignJWT(claims)
        .setProtectedHeader({ ...header, alg: "HS256" })
        .sign(rawPublic),
      "nbf in the future": await identity.token(accountId, { claims: { nbf: now + 60 } }),
      "iat in the future": await identity.token(accountId, { claims: { iat: now + 60, exp: now + 900 } }),
      "wrong aud": await identity.token(accountId, { claims: { aud: "someone-else" } }),
      "wrong iss": await identity.token(accountId, { claims: { iss: "https://evil.example" } }),
      "wrong typ": await identity.token(accountId, { header: { typ: "JWT" } }),
      "no typ": await identity.token(accountId, { header: { typ: undefined } }),
      "internal token typ": await identity.token(accountId, { header: { typ: "petri-internal+jwt" } }),
      "missing exp": await identity.token(accountId, { omitExp: true }),
      "missing sub": await identity.token(accountId, { claims: { sub: undefined } }),
      "unknown kid": await identity.token(accountId, { header: { kid: "kid_nobody" } }),
      "no kid": await identity.token(accountId, { header: { kid: undefined } }),
      "role system": await identity.token(accountId, { claims: { role: "system" } }),
      "unknown tier": await identity.token(accountId, { claims: { tier: "platinum" } }),
      "signature stripped": (await identity.token(accountId)).split(".").slice(0, 2).join(".") + ".",
      "tampered claims": await (async () => {
        const [h, , s] = (await identity.token(accountId)).split(".");
        return `${h}.${base64url.encode(JSON.stringify({ ...claims, role: "staff" }))}.${s}`;
      })(),
      "not a JWT": "abc.def",
      garbage: "%%%",
    };
    expect(Object.keys(corpus).length).toBeGreaterThanOrEqual(15);
    for (const [name, token] of Object.entries(corpus)) {
      // A new address per case: this test is about each refusal, not the failure limiter.
      const response = await bearer(token, `203.0.113.${Object.keys(corpus).indexOf(name) + 1}`);
      await expectUnauthorized(response).catch((error: Error) => {
        throw new Error(`${name}: ${error.message}`);
      });
    }
    // Refused in the gateway: no call was made on behalf of any of these "callers".
    expect(identity.count("GetAccount")).toBe(0);
    // Other schemes and empty values are refused as well.
    for (const value of ["Basic dXNlcjpwYXNz", "Bearer", "Bearer ", "bearer  x y", "Token abc"]) {
      await expectUnauthorized(
        await app.request(ME, { headers: { authorization: value } }, from("203.0.113.99")),
      );
    }
  });

  it("honours exp with a 5 s clock tolerance, on the injected clock", async () => {
    const token = await identity.token(accountId, { ttlSeconds: 60 });
    await clock.advance(64_000);
    expect((await bearer(token)).status).toBe(200);
    await clock.advance(1_000);
    await expectUnauthorized(await bearer(token));
  });

  it("fetches keys for an unknown kid at most once per 5 s", async () => {
    const stranger = await identity.token(accountId, { header: { kid: "kid_unknown" } });
    await bearer(await identity.token(accountId));
    expect(identity.count("ListSigningKeys")).toBe(1);
    for (let i = 0; i < 5; i += 1) await expectUnauthorized(await bearer(stranger, `192.0.2.${i + 1}`));
    expect(identity.count("ListSigningKeys")).toBe(1); // the 5 s since the first fetch have not passed
    await clock.advance(5_000);
    await expectUnauthorized(await bearer(stranger, "192.0.2.50"));
    await expectUnauthorized(await bearer(stranger, "192.0.2.51"));
    expect(identity.count("ListSigningKeys")).toBe(2);
  });

  it("follows a key rotation: the old kid verifies while listed, and is refused once it is dropped", async () => {
    const oldKey = identity.activeKey;
    const oldToken = await identity.token(accountId, { ttlSeconds: 3_600 });
    expect((await bearer(oldToken)).status).toBe(200);

    await identity.addSigningKey(); // rotation: the old key is RETIRING but still listed
    const newToken = await identity.token(accountId);
    await clock.advance(5_000);
    expect((await bearer(newToken)).status).toBe(200); // unknown kid -> refresh -> accepted
    expect((await bearer(oldToken)).status).toBe(200);

    identity.dropSigningKey(oldKey.kid);
    expect((await bearer(oldToken)).status).toBe(200); // still cached: the gateway has not refreshed yet
    await clock.advance(60_000); // the cache is now older than 60 s and is refreshed on this request
    await expectUnauthorized(await bearer(oldToken));
    expect((await bearer(newToken)).status).toBe(200);
  });

  it("refuses a RETIRING key after its retires_at even before it is dropped", async () => {
    const oldToken = await identity.token(accountId, { ttlSeconds: 7_200 });
    await identity.addSigningKey(600_000); // the old key retires in 10 minutes
    await clock.advance(60_000);
    expect((await bearer(oldToken)).status).toBe(200);
    await clock.advance(600_000);
    await expectUnauthorized(await bearer(oldToken));
  });

  it("keeps verifying with cached keys while identity cannot list them, and says 503 with none", async () => {
    const token = await identity.token(accountId, { ttlSeconds: 3_600 });
    expect((await bearer(token)).status).toBe(200);
    identity.down.add("ListSigningKeys");
    await clock.advance(61_000);
    expect((await bearer(token)).status).toBe(200);

    const fresh = await gatewayFor(identity);
    const response = await fresh.request(ME, { headers: { authorization: `Bearer ${token}` } }, from(SOURCE));
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect((await bodyOf(response)).error.code).toBe("unavailable");
  });
});

describe("API keys", () => {
  it("refuses a malformed key without asking identity", async () => {
    for (const key of ["nope", apiKey.slice(0, -1) + (apiKey.endsWith("A") ? "B" : "A"), `${apiKey}x`]) {
      await expectUnauthorized(await withKey(key));
    }
    expect(identity.count("AuthenticateApiKey")).toBe(0);
  });

  it("caches a key for 30 s (by its hash), and does not cache refusals", async () => {
    for (let i = 0; i < 5; i += 1) expect((await withKey(apiKey)).status).toBe(200);
    expect(identity.count("AuthenticateApiKey")).toBe(1);
    await clock.advance(29_000);
    expect((await withKey(apiKey)).status).toBe(200);
    expect(identity.count("AuthenticateApiKey")).toBe(1);
    await clock.advance(1_000);
    expect((await withKey(apiKey)).status).toBe(200);
    expect(identity.count("AuthenticateApiKey")).toBe(2);

    const { secret: unknown } = identity.addKey(accountId, "to be forgotten");
    identity.keys.forEach((stored, id) => stored.secret === unknown && identity.keys.delete(id));
    await expectUnauthorized(await withKey(unknown));
    await expectUnauthorized(await withKey(unknown));
    expect(identity.count("AuthenticateApiKey")).toBe(4);
  });

  it("evicts a key revoked through this gateway at once; without the event another gateway follows within 30 s", async () => {
    const other = await gatewayFor(identity);
    identity.eventsLost = true; // revocation.test.ts covers the event: here only the cache expiry
    const { key, secret } = identity.addKey(accountId, "ci");
    expect((await withKey(secret)).status).toBe(200);
    expect((await other.request(ME, { headers: { "x-api-key": secret } }, from(SOURCE))).status).toBe(200);

    const revoked = await app.request(
      `/auth/api-keys/${key.id}`,
      { method: "DELETE", headers: { "x-api-key": apiKey } },
      from(SOURCE),
    );
    expect(revoked.status).toBe(200);
    await expectUnauthorized(await withKey(secret));

    // The other gateway still holds its cached entry: the fallback propagation window.
    expect((await other.request(ME, { headers: { "x-api-key": secret } }, from(SOURCE))).status).toBe(200);
    await clock.advance(30_000);
    await expectUnauthorized(await other.request(ME, { headers: { "x-api-key": secret } }, from(SOURCE)));
  });

  it("answers 503 when identity cannot check a key (not 401)", async () => {
    identity.down.add("AuthenticateApiKey");
    const response = await withKey(apiKey);
    expect(response.status).toBe(503);
    expect((await bodyOf(response)).error.code).toBe("unavailable");
  });
});

describe("credentials", () => {
  it("refuses Bearer and X-API-Key together with 400 conflicting_credentials, evaluating neither", async () => {
    const token = await identity.token(accountId);
    const response = await app.request(
      ME,
      { headers: { authorization: `Bearer ${token}`, "x-api-key": apiKey } },
      from(SOURCE),
    );
    expect(response.status).toBe(400);
    expect((await bodyOf(response)).error.code).toBe("conflicting_credentials");
    expect(identity.count("AuthenticateApiKey")).toBe(0);
    expect(identity.count("ListSigningKeys")).toBe(0);
  });

  it("answers a request without credentials 401 with WWW-Authenticate", async () => {
    await expectUnauthorized(await app.request(ME, {}, from(SOURCE)));
  });

  it("calls identity as the gateway for its own lookups and as the caller for the caller's requests", async () => {
    const token = await identity.token(accountId);
    expect((await bearer(token)).status).toBe(200);
    // Past the account view's lifetime, so the second request asks identity again.
    await clock.set(clock.now().getTime() + DEFAULT_ACCOUNT_VIEW_TTL_MS);
    expect((await withKey(apiKey)).status).toBe(200);
    const byMethod = (method: string) => identity.principals.filter((p) => p.method === method);
    for (const method of ["ListSigningKeys", "AuthenticateApiKey", "AcquireQuota"]) {
      expect(byMethod(method).length).toBeGreaterThan(0);
      for (const call of byMethod(method)) expect(call.principal?.role).toBe("system");
    }
    const getAccount = byMethod("GetAccount");
    expect(getAccount).toHaveLength(2);
    for (const call of getAccount) {
      expect(call.principal).toMatchObject({ accountId, role: "requester", tier: "pro" });
    }
  });

  it("forbids a valid caller outside the operation's roles with 403", async () => {
    const response = await app.request(
      "/staff/signing-keys/rotate",
      { method: "POST", headers: { "x-api-key": apiKey } },
      from(SOURCE),
    );
    expect(response.status).toBe(403);
    expect((await bodyOf(response)).error.code).toBe("forbidden");
    expect(identity.count("RotateSigningKey")).toBe(0);
  });
});

describe("failed-authentication limiter", () => {
  const login = (email: string, password: string, address: string, gateway = app) =>
    gateway.request(
      "/auth/token",
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password }),
      },
      from(address),
    );

  it("after 20 failures of one key from one address, refuses that key there without evaluating it, and only that key", async () => {
    const attacker = "192.0.2.66";
    const { secret: unknown } = identity.addKey(accountId, "deleted");
    identity.keys.forEach((stored, id) => stored.secret === unknown && identity.keys.delete(id));

    for (let i = 1; i <= 20; i += 1) {
      const response = await withKey(unknown, attacker);
      await expectUnauthorized(response);
      expect(response.headers.get("x-ratelimit-limit")).toBe("20");
      expect(response.headers.get("x-ratelimit-remaining")).toBe(String(20 - i));
    }
    expect(identity.count("AuthenticateApiKey")).toBe(20);

    // The 21st with the same key: 429 without asking identity.
    const blocked = await withKey(unknown, attacker);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("retry-after")).toBe("60");
    expect((await bodyOf(blocked)).error).toMatchObject({
      code: "rate_limit_exceeded",
      message: "too many failed authentications with this credential from this address",
      details: { limit: 20 },
    });
    expect(identity.count("AuthenticateApiKey")).toBe(20);

    // Other credentials from the same address (people behind the same NAT) are unaffected,
    // and so is the same key from another address.
    expect((await withKey(apiKey, attacker)).status).toBe(200);
    expect((await bearer(await identity.token(accountId), attacker)).status).toBe(200);
    await expectUnauthorized(await withKey(unknown, "192.0.2.67"));

    // The window resets.
    await clock.advance(60_000);
    await expectUnauthorized(await withKey(unknown, attacker));
  });

  it("locks a token refused 20 times (a stale browser tab) at its address, not the other tokens there", async () => {
    const office = "192.0.2.70";
    const token = await identity.token(accountId);
    // A signature byte changed (mid-signature, not in the last character's padding bits).
    const at = token.length - 10;
    const stale = token.slice(0, at) + (token[at] === "A" ? "B" : "A") + token.slice(at + 1);
    for (let i = 0; i < 20; i += 1) await expectUnauthorized(await bearer(stale, office));
    const blocked = await bearer(stale, office);
    expect(blocked.status).toBe(429);
    expect((await bodyOf(blocked)).error.details).toMatchObject({ limit: 20, window: "minute" });
    expect((await bearer(await identity.token(accountId), office)).status).toBe(200);
    expect((await withKey(apiKey, office)).status).toBe(200);
  });

  it("locks an account at one address after 20 wrong passwords, even for the right one, and lets a colleague at the same address log in", async () => {
    const office = "192.0.2.77";
    const ada = identity.addAccount({ email: "ada@example.org", password: "ada's password" }).account;
    const bob = identity.addAccount({ email: "bob@example.org", password: "bob's password" }).account;
    for (let i = 0; i < 25; i += 1) {
      const response = await login(ada.email, `guess ${i}`, office);
      if (i < 20) await expectUnauthorized(response);
      else expect(response.status).toBe(429);
    }
    expect(identity.count("IssueToken")).toBe(20);

    // Ada's account stays locked at this address for the rest of the minute, whatever the
    // spelling of her e-mail: the password is not even checked.
    for (const email of [ada.email, " ADA@example.org "]) {
      const refused = await login(email, "ada's password", office);
      expect(refused.status).toBe(429);
      expect((await bodyOf(refused)).error).toMatchObject({
        code: "rate_limit_exceeded",
        details: { limit: 20, window: "minute" },
      });
    }
    expect(identity.count("IssueToken")).toBe(20);

    // Bob, behind the same address, logs in; so does Ada from home.
    expect((await login(bob.email, "bob's password", office)).status).toBe(200);
    expect((await login(ada.email, "ada's password", "198.51.100.99")).status).toBe(200);

    await clock.advance(60_000);
    expect((await login(ada.email, "ada's password", office)).status).toBe(200);
  });

  it("still refuses every credential from an address over the 1,000-failure ceiling", async () => {
    const stuffer = "192.0.2.99";
    // 980 failures counted by other gateway instances (the counter is identity's) ...
    identity.acquire(QuotaPolicy.AUTH_FAILURES, stuffer, Tier.UNSPECIFIED, 980);
    // ... then 20 here, each with another credential, so no pair reaches its own limit.
    for (let i = 0; i < 20; i += 1) {
      const response = await withKey(`not-a-key-${i}`, stuffer);
      expect(response.status).toBe(401);
    }
    const over = await withKey("not-a-key-20", stuffer);
    expect(over.status).toBe(429);
    expect((await bodyOf(over)).error).toMatchObject({
      code: "rate_limit_exceeded",
      message: "too many failed authentications from this address",
      details: { limit: 1_000, window: "minute" },
    });
    // Now no credential from that address is evaluated, a login neither.
    expect((await withKey(apiKey, stuffer)).status).toBe(429);
    const user = identity.addAccount({ email: "cy@example.org", password: "cy's password" }).account;
    expect((await login(user.email, "cy's password", stuffer)).status).toBe(429);
    expect(identity.count("IssueToken")).toBe(0);
    // Requests without credentials and other addresses are unaffected.
    expect((await app.request("/config", {}, from(stuffer))).status).toBe(200);
    expect((await withKey(apiKey, "192.0.2.100")).status).toBe(200);
  });

  it("counts a pair's failures exactly across two gateway instances", async () => {
    const gateways = [app, await gatewayFor(identity)];
    const ada = identity.addAccount({ email: "ada@example.org", password: "ada's password" }).account;
    const statuses: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      statuses.push((await login(ada.email, `guess ${i}`, "192.0.2.78", gateways[i % 2])).status);
    }
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(20).every((status) => status === 429)).toBe(true);
    // Each gateway learns of the block from its own draw: at most one more attempt is checked.
    expect(identity.count("IssueToken")).toBe(21);
    for (const gateway of gateways) {
      expect((await login(ada.email, "ada's password", "192.0.2.78", gateway)).status).toBe(429);
    }
  });

  it("ignores X-Forwarded-For unless the proxy is trusted", async () => {
    const bad = "petri_sk_" + "0".repeat(38);
    for (let i = 0; i < 20; i += 1) {
      await app.request(
        ME,
        { headers: { "x-api-key": bad, "x-forwarded-for": `10.9.9.${i}` } },
        from("192.0.2.88"),
      );
    }
    // Spoofed headers did not spread the failures: the key is blocked at the peer's address.
    const response = await app.request(
      ME,
      { headers: { "x-api-key": bad, "x-forwarded-for": "10.9.9.99" } },
      from("192.0.2.88"),
    );
    expect(response.status).toBe(429);

    const behindProxy = await gatewayFor(identity, { trustProxy: true });
    const viaProxy = await behindProxy.request(
      ME,
      { headers: { "x-api-key": bad, "x-forwarded-for": "1.2.3.4, 198.51.100.200" } },
      from("192.0.2.88"),
    );
    await expectUnauthorized(viaProxy);
  });
});

describe("roles", () => {
  it("lets staff through a staff-only operation", async () => {
    const { secret } = identity.addAccount({ role: Role.STAFF });
    const response = await app.request(
      "/staff/signing-keys/rotate",
      { method: "POST", headers: { "x-api-key": secret } },
      from(SOURCE),
    );
    expect(response.status).toBe(200);
  });
});
