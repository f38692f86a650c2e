import { expect } from "vitest";
import { postDeclaredLengthOnly } from "./support/post-body.js";

export interface Target {
  baseUrl: string;
  /** Reads notifications' projection of an account (proves the event crossed services). */
  contactFor(accountId: string): Promise<{ email: string } | undefined>;
}

async function json(response: Response): Promise<any> {
  return JSON.parse(await response.text());
}

export async function waitFor<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  attempts = 200,
): Promise<T> {
  for (let i = 0; i < attempts; i += 1) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export async function healthReportsEveryService(target: Target): Promise<void> {
  const response = await waitFor(async () => {
    const r = await fetch(`${target.baseUrl}/health`);
    return r.status === 200 ? r : undefined;
  }, "GET /health to answer 200");
  const body = await json(response);
  expect(body.status).toBe("ok");
  expect(Object.keys(body.services).sort()).toEqual(
    ["cloudlabs", "engine", "experiments", "hypotheses", "identity", "marketplace", "notifications"].sort(),
  );
  for (const service of Object.values(body.services) as Array<{ status: string }>)
    expect(service.status).toBe("ready");
}

export async function registrationEventReachesNotifications(target: Target): Promise<void> {
  const email = `ada+${Date.now()}-${Math.random().toString(36).slice(2)}@example.org`;
  const created = await fetch(`${target.baseUrl}/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: "a long enough password", name: "Ada", organization: "Lab" }),
  });
  expect(created.status).toBe(201);
  const { account } = await json(created);
  expect(account).toMatchObject({ email, name: "Ada", role: "requester", tier: "standard" });
  expect(account.id).toMatch(/^usr_/);
  expect(JSON.stringify(account)).not.toContain("password");

  // identity's outbox -> relay -> bus -> notifications' consumer -> its own table
  const contact = await waitFor(
    () => target.contactFor(account.id),
    "the AccountRegistered event in notifications",
  );
  expect(contact.email).toBe(email);

  const again = await fetch(`${target.baseUrl}/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      email: email.toUpperCase(),
      password: "another long password",
      name: "Eve",
      organization: "",
    }),
  });
  expect(again.status).toBe(409);
  expect(await json(again)).toMatchObject({
    error: { code: "email_taken", message: expect.any(String), details: {} },
  });
}

export async function errorsHaveOneShape(target: Target): Promise<void> {
  const invalid = await fetch(`${target.baseUrl}/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "not-an-email", password: "short", name: "" }),
  });
  expect(invalid.status).toBe(422);
  const invalidBody = await json(invalid);
  expect(invalidBody.error.code).toBe("validation_failed");
  expect(invalidBody.error.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(
    ["email", "name", "password"].sort(),
  );

  const missing = await fetch(`${target.baseUrl}/no/such/route`);
  expect(missing.status).toBe(404);
  expect((await json(missing)).error.code).toBe("not_found");

  // Refused by its declared length, before any of it is read (see postDeclaredLengthOnly).
  const tooLarge = await postDeclaredLengthOnly(`${target.baseUrl}/auth/register`, {}, 2_000_000);
  expect(tooLarge.status).toBe(413);
  expect(tooLarge.body.error.code).toBe("payload_too_large");
}

const jsonHeaders = { "content-type": "application/json" };

export async function registerAndLogIn(
  baseUrl: string,
  label: string,
): Promise<{ accountId: string; email: string; apiKey: string; accessToken: string }> {
  const email = `${label}+${Date.now()}-${Math.random().toString(36).slice(2)}@example.org`;
  const password = "a long enough password";
  const registered = await fetch(`${baseUrl}/auth/register`, {
    method: "POST",
    headers: jsonHeaders,
    body: JSON.stringify({ email, password, name: label }),
  });
  expect(registered.status).toBe(201);
  const body = await json(registered);
  const token = await fetch(`${baseUrl}/auth/token`, {
    method: "POST",
    headers: jsonHeaders,
    body: JSON.stringify({ email, password }),
  });
  expect(token.status).toBe(200);
  const { access_token } = await json(token);
  return { accountId: body.account.id, email, apiKey: body.api_key_secret, accessToken: access_token };
}

/** register -> token -> me -> create key -> call with key -> revoke -> 401 */
export async function credentialsLifecycle(target: Target): Promise<void> {
  const base = target.baseUrl;
  const email = `grace+${Date.now()}@example.org`;
  const password = "correct horse battery staple";
  const registered = await fetch(`${base}/auth/register`, {
    method: "POST",
    headers: jsonHeaders,
    body: JSON.stringify({ email, password, name: "Grace", organization: "Navy" }),
  });
  expect(registered.status).toBe(201);
  expect(registered.headers.get("cache-control")).toContain("no-store");
  const { account, api_key_secret: firstKey } = await json(registered);
  expect(firstKey).toMatch(/^petri_sk_[0-9A-Za-z]{38}$/);

  const wrongPassword = await fetch(`${base}/auth/token`, {
    method: "POST",
    headers: jsonHeaders,
    body: JSON.stringify({ email, password: "not the password at all" }),
  });
  const unknownEmail = await fetch(`${base}/auth/token`, {
    method: "POST",
    headers: jsonHeaders,
    body: JSON.stringify({ email: `nobody-${Date.now()}@example.org`, password }),
  });
  expect(wrongPassword.status).toBe(401);
  expect(unknownEmail.status).toBe(401);
  expect(await json(wrongPassword)).toEqual(await json(unknownEmail));

  const tokenResponse = await fetch(`${base}/auth/token`, {
    method: "POST",
    headers: jsonHeaders,
    body: JSON.stringify({ email, password }),
  });
  expect(tokenResponse.status).toBe(200);
  const token = await json(tokenResponse);
  expect(token).toMatchObject({ token_type: "bearer", expires_in: 3600 });

  const bearer = { authorization: `Bearer ${token.access_token}` };
  const me = await fetch(`${base}/auth/me`, { headers: bearer });
  expect(me.status).toBe(200);
  expect(JSON.stringify(await json(me))).toContain(email);
  expect(me.headers.get("x-ratelimit-limit")).toBe("100");

  const anonymous = await fetch(`${base}/auth/me`);
  expect(anonymous.status).toBe(401);
  expect((await json(anonymous)).error.code).toBe("unauthorized");

  const created = await fetch(`${base}/auth/api-keys`, {
    method: "POST",
    headers: { ...bearer, ...jsonHeaders },
    body: JSON.stringify({ name: "ci" }),
  });
  expect(created.status).toBe(201);
  const createdBody = await json(created);
  const secret: string = createdBody.api_key_secret ?? createdBody.secret;
  const keyId: string = createdBody.api_key.id;

  const withKey = await fetch(`${base}/auth/me`, { headers: { "x-api-key": secret } });
  expect(withKey.status).toBe(200);
  expect(JSON.stringify(await json(withKey))).toContain(account.id);

  const listed = await json(await fetch(`${base}/auth/api-keys`, { headers: bearer }));
  expect(listed.api_keys.map((k: { id: string }) => k.id)).toContain(keyId);
  expect(JSON.stringify(listed)).not.toContain(secret);
  expect(JSON.stringify(listed)).not.toContain(firstKey);

  const revoked = await fetch(`${base}/auth/api-keys/${keyId}`, { method: "DELETE", headers: bearer });
  expect(revoked.status).toBe(200);
  const afterRevoke = await fetch(`${base}/auth/me`, { headers: { "x-api-key": secret } });
  expect(afterRevoke.status).toBe(401);
  expect((await json(afterRevoke)).error.code).toBe("unauthorized");
  // The account's other key is untouched.
  expect((await fetch(`${base}/auth/me`, { headers: { "x-api-key": firstKey } })).status).toBe(200);
}

/** Waits, if need be, so that `needSeconds` fit before the next minute window starts. */
export async function awayFromMinuteEdge(needSeconds: number): Promise<void> {
  const second = new Date().getUTCSeconds();
  if (second > 60 - needSeconds) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
}

/** Requests spread over several gateways draw on one shared per-account quota. */
export async function sharedRateLimit(gatewayUrls: string[]): Promise<void> {
  const { apiKey } = await registerAndLogIn(gatewayUrls[0]!, "quota");
  await awayFromMinuteEdge(20);
  const statuses: number[] = [];
  for (let i = 0; i < 110; i += 1) {
    const url = gatewayUrls[i % gatewayUrls.length]!;
    const response = await fetch(`${url}/auth/me`, { headers: { "x-api-key": apiKey } });
    statuses.push(response.status);
    if (response.status === 429) {
      expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
      expect((await json(response)).error.code).toBe("rate_limit_exceeded");
    } else {
      await response.text();
    }
  }
  expect(statuses.filter((s) => s === 200).length).toBe(100);
  expect(statuses.filter((s) => s === 429).length).toBe(10);
}

/** A staff member (bootstrapped from PETRI_STAFF_*) moves an account to the pro tier. */
export async function staffChangesTier(
  target: Target,
  staff: { email: string; password: string },
): Promise<void> {
  const base = target.baseUrl;
  const user = await registerAndLogIn(base, "tiered");
  const before = await fetch(`${base}/auth/me`, { headers: { "x-api-key": user.apiKey } });
  expect(before.headers.get("x-ratelimit-limit")).toBe("100");

  const forbidden = await fetch(`${base}/staff/accounts/${user.accountId}`, {
    method: "PATCH",
    headers: { "x-api-key": user.apiKey, ...jsonHeaders },
    body: JSON.stringify({ tier: "pro" }),
  });
  expect(forbidden.status).toBe(403);
  expect((await json(forbidden)).error.code).toBe("forbidden");

  const staffToken = await fetch(`${base}/auth/token`, {
    method: "POST",
    headers: jsonHeaders,
    body: JSON.stringify(staff),
  });
  expect(staffToken.status).toBe(200);
  const { access_token } = await json(staffToken);
  const changed = await fetch(`${base}/staff/accounts/${user.accountId}`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${access_token}`, ...jsonHeaders },
    body: JSON.stringify({ tier: "pro" }),
  });
  expect(changed.status).toBe(200);
  expect(JSON.stringify(await json(changed))).toContain('"pro"');

  // A fresh token carries the new tier, and so the pro limit.
  const token = await fetch(`${base}/auth/token`, {
    method: "POST",
    headers: jsonHeaders,
    body: JSON.stringify({ email: user.email, password: "a long enough password" }),
  });
  const fresh = (await json(token)).access_token;
  const after = await fetch(`${base}/auth/me`, { headers: { authorization: `Bearer ${fresh}` } });
  expect(after.status).toBe(200);
  expect(after.headers.get("x-ratelimit-limit")).toBe("1000");
}

/**
 * Staff give an account the custom tier with small limits: the account's requests, spread over
 * every gateway, see X-RateLimit-Limit of the custom minute and exactly that many are admitted.
 */
export async function staffSetsCustomLimits(
  gatewayUrls: string[],
  staff: { email: string; password: string },
): Promise<void> {
  const [first] = gatewayUrls as [string, ...string[]];
  const user = await registerAndLogIn(first, "custom");
  const staffToken = await fetch(`${first}/auth/token`, {
    method: "POST",
    headers: jsonHeaders,
    body: JSON.stringify(staff),
  });
  expect(staffToken.status).toBe(200);
  const staffAuth = { authorization: `Bearer ${(await json(staffToken)).access_token}` };
  const patch = (body: unknown) =>
    fetch(`${first}/admin/accounts/${user.accountId}`, {
      method: "PATCH",
      headers: { ...staffAuth, ...jsonHeaders },
      body: JSON.stringify(body),
    });

  const refused = await patch({ tier: "custom" });
  expect(refused.status).toBe(422);
  expect((await json(refused)).error.details.errors).toContainEqual(
    expect.objectContaining({ field: "rate_limits", code: "missing_required" }),
  );
  const changed = await patch({ tier: "custom", rate_limits: { per_minute: 5, per_day: 50 } });
  expect(changed.status).toBe(200);
  expect((await json(changed)).account).toMatchObject({
    tier: "custom",
    rate_limits: { per_minute: 5, per_day: 50 },
  });
  const seen = await fetch(`${first}/admin/accounts/${user.accountId}`, { headers: staffAuth });
  expect((await json(seen)).account.rate_limits).toEqual({ per_minute: 5, per_day: 50 });

  // A fresh token carries the custom tier; identity applies the account's own limits.
  const token = await fetch(`${first}/auth/token`, {
    method: "POST",
    headers: jsonHeaders,
    body: JSON.stringify({ email: user.email, password: "a long enough password" }),
  });
  const bearer = { authorization: `Bearer ${(await json(token)).access_token}` };
  await awayFromMinuteEdge(20);
  const statuses: number[] = [];
  for (let i = 0; i < 8; i += 1) {
    const response = await fetch(`${gatewayUrls[i % gatewayUrls.length]}/auth/me`, { headers: bearer });
    statuses.push(response.status);
    expect(response.headers.get("x-ratelimit-limit")).toBe("5");
    const body = await json(response);
    if (response.status === 200) {
      expect(body.account.tier).toBe("custom");
      expect(body.limits).toEqual({ requests_per_minute: 5, requests_per_day: 50 });
    } else {
      expect(body.error.code).toBe("rate_limit_exceeded");
    }
  }
  expect(statuses.filter((s) => s === 200)).toHaveLength(5);
  expect(statuses.filter((s) => s === 429)).toHaveLength(3);
}
