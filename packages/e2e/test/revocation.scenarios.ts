/**
 * Revoked rights end at once, on every gateway: a staff account demoted through
 * PATCH /admin/accounts/{id} loses /admin with its access token and its API key; a token
 * ended through POST /auth/token/revoke and the tokens issued before a password change are
 * refused. Each wait is bounded by REVOCATION_BOUND_MS (the bound README.md states).
 */
import { expect } from "vitest";
import { registerAndLogIn } from "./scenarios.js";

export interface RevocationTarget {
  /** One gateway (standalone) or several (cluster): every one must refuse. */
  baseUrls: string[];
  staff: { email: string; password: string };
}

/** The bound README.md states for a revocation to reach every gateway. */
export const REVOCATION_BOUND_MS = 5_000;
const POLL_MS = 100;
const PASSWORD = "a long enough password";
const jsonHeaders = { "content-type": "application/json" };

type Credential = Record<string, string>;
const bearer = (token: string): Credential => ({ authorization: `Bearer ${token}` });
const apiKey = (secret: string): Credential => ({ "x-api-key": secret });

async function statusOf(url: string, credential: Credential): Promise<number> {
  const response = await fetch(url, { headers: credential });
  await response.arrayBuffer();
  return response.status;
}

/**
 * Polls until `url` answers `expected` with `credential`, for at most the bound (counted in
 * polls, so a slow machine stretches it rather than failing it); returns the last status.
 */
async function statusWithinBound(url: string, credential: Credential, expected: number): Promise<number> {
  let status = 0;
  for (let poll = 0; poll <= REVOCATION_BOUND_MS / POLL_MS; poll += 1) {
    status = await statusOf(url, credential);
    if (status === expected) return status;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return status;
}

async function logIn(baseUrl: string, credentials: { email: string; password: string }): Promise<string> {
  const response = await fetch(`${baseUrl}/auth/token`, {
    method: "POST",
    headers: jsonHeaders,
    body: JSON.stringify(credentials),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

async function setRole(baseUrl: string, staffToken: string, accountId: string, role: string) {
  const response = await fetch(`${baseUrl}/admin/accounts/${accountId}`, {
    method: "PATCH",
    headers: { ...bearer(staffToken), ...jsonHeaders },
    body: JSON.stringify({ role }),
  });
  expect(response.status).toBe(200);
}

/** Promoted to staff, then demoted: its Bearer token (401) and API key (403) lose /admin everywhere. */
export async function demotionEndsAdminAccess(target: RevocationTarget): Promise<void> {
  const [first] = target.baseUrls as [string, ...string[]];
  const staffToken = await logIn(first, target.staff);
  const user = await registerAndLogIn(first, "demoted");
  await setRole(first, staffToken, user.accountId, "staff");
  const token = await logIn(first, { email: user.email, password: PASSWORD });

  // Staff on every gateway, with both credentials (the API key's staff answer is now cached).
  for (const base of target.baseUrls) {
    expect(await statusWithinBound(`${base}/admin/ledger`, bearer(token), 200)).toBe(200);
    expect(await statusWithinBound(`${base}/admin/ledger`, apiKey(user.apiKey), 200)).toBe(200);
  }

  await setRole(first, staffToken, user.accountId, "requester");

  for (const base of target.baseUrls) {
    expect(await statusWithinBound(`${base}/admin/ledger`, bearer(token), 401), `${base} Bearer`).toBe(401);
    expect(await statusWithinBound(`${base}/admin/ledger`, apiKey(user.apiKey), 403), `${base} API key`).toBe(
      403,
    );
    // The account itself still works, with its new rights.
    expect(await statusOf(`${base}/auth/me`, apiKey(user.apiKey))).toBe(200);
  }
  const fresh = await logIn(first, { email: user.email, password: PASSWORD });
  expect(await statusOf(`${first}/admin/ledger`, bearer(fresh))).toBe(403);
}

/**
 * POST /auth/token/revoke on one gateway ends the token on all of them; 200 for anything. An
 * API key revoked through one gateway is refused by all of them.
 */
export async function revokeEndsToken(target: RevocationTarget): Promise<void> {
  const urls = target.baseUrls;
  const user = await registerAndLogIn(urls[0]!, "revoking");
  const sibling = await logIn(urls[0]!, { email: user.email, password: PASSWORD });
  for (const base of urls) expect(await statusOf(`${base}/auth/me`, bearer(user.accessToken))).toBe(200);

  const revoke = (token: string) =>
    fetch(`${urls[urls.length - 1]}/auth/token/revoke`, {
      method: "POST",
      headers: jsonHeaders,
      body: JSON.stringify({ token }),
    });
  const revoked = await revoke(user.accessToken);
  expect(revoked.status).toBe(200);
  expect(await revoked.json()).toEqual({});

  for (const base of urls) {
    expect(await statusWithinBound(`${base}/auth/me`, bearer(user.accessToken), 401), base).toBe(401);
    expect(await statusOf(`${base}/auth/me`, bearer(sibling))).toBe(200);
  }
  // An API key revoked through one gateway is refused by the others too.
  for (const base of urls) expect(await statusOf(`${base}/auth/me`, apiKey(user.apiKey))).toBe(200);
  const keys = await fetch(`${urls[0]}/auth/api-keys`, { headers: bearer(sibling) });
  const keyId = ((await keys.json()) as { api_keys: { id: string }[] }).api_keys[0]!.id;
  const keyRevoked = await fetch(`${urls[0]}/auth/api-keys/${keyId}`, {
    method: "DELETE",
    headers: bearer(sibling),
  });
  expect(keyRevoked.status).toBe(200);
  for (const base of urls) {
    expect(await statusWithinBound(`${base}/auth/me`, apiKey(user.apiKey), 401), base).toBe(401);
  }
  for (const token of [user.accessToken, "not-a-token"]) {
    const again = await revoke(token);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({});
  }
}

/** POST /auth/password ends every older access token on every gateway; the API key stays valid. */
export async function passwordChangeEndsTokens(target: RevocationTarget): Promise<void> {
  const urls = target.baseUrls;
  const user = await registerAndLogIn(urls[0]!, "password");
  const change = (current: string) =>
    fetch(`${urls[0]}/auth/password`, {
      method: "POST",
      headers: { ...bearer(user.accessToken), ...jsonHeaders },
      body: JSON.stringify({ current_password: current, new_password: "a brand new password" }),
    });
  const wrong = await change("not the password");
  expect(wrong.status).toBe(401);
  expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe("unauthorized");

  const changed = await change(PASSWORD);
  expect(changed.status).toBe(200);
  for (const base of urls) {
    expect(await statusWithinBound(`${base}/auth/me`, bearer(user.accessToken), 401), base).toBe(401);
    expect(await statusOf(`${base}/auth/me`, apiKey(user.apiKey))).toBe(200);
  }
  const old = await fetch(`${urls[0]}/auth/token`, {
    method: "POST",
    headers: jsonHeaders,
    body: JSON.stringify({ email: user.email, password: PASSWORD }),
  });
  expect(old.status).toBe(401);
  const fresh = await logIn(urls[0]!, { email: user.email, password: "a brand new password" });
  for (const base of urls) expect(await statusOf(`${base}/auth/me`, bearer(fresh))).toBe(200);
}
