import { randomUUID } from "node:crypto";
import { micRequest, operatorProfile, verificationRecord } from "@petri/testkit";
import { STAFF } from "./targets.js";

/** One requester the load is spread over: a bearer token and an experiment it owns. */
export interface Requester {
  token: string;
  experimentId: string;
}

export interface Population {
  requesters: Requester[];
  /** A pro-tier operator's token (the operator side of the mixed workload). */
  operatorToken: string;
}

/**
 * A JSON call that expects `status`. Setup's anonymous calls share the per-address quota
 * (60 a minute) with the start-up probes, so a 429 waits out its Retry-After (fixed windows:
 * at most a minute), a bounded number of times.
 */
async function call(
  baseUrl: string,
  method: string,
  path: string,
  status: number | number[],
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<any> {
  for (let attempt = 0; attempt < 4; attempt += 1) {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(options.body === undefined ? {} : { "content-type": "application/json" }),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    if (response.status === 429) {
      const wait = Math.min(Number(response.headers.get("retry-after")) || 5, 61);
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
      continue;
    }
    if (![status].flat().includes(response.status))
      throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text);
  }
  throw new Error(`${method} ${path}: still rate limited`);
}

async function token(baseUrl: string, email: string, password: string): Promise<string> {
  return (await call(baseUrl, "POST", "/auth/token", 200, { body: { email, password } })).access_token;
}

/**
 * Accounts moved to the highest tier staff can set ("pro": 1,000 requests a minute and 10,000 a
 * day each; no tier has custom limits yet), `count` of them so that the load spreads under
 * those limits, each with one experiment to read; and one verified operator. Tokens are issued
 * after the tier and role changes, as a token carries the tier and role it was issued with.
 */
export async function preparePopulation(baseUrl: string, count: number): Promise<Population> {
  const staffToken = await token(baseUrl, STAFF.email, STAFF.password);
  const password = "a long enough bench password";
  const register = async (label: string) => {
    const email = `bench-${label}-${randomUUID()}@example.org`;
    const registered = await call(baseUrl, "POST", "/auth/register", 201, {
      body: { email, password, name: `Bench ${label}` },
    });
    return { email, id: registered.account.id as string };
  };
  const toPro = (id: string) =>
    call(baseUrl, "PATCH", `/admin/accounts/${id}`, 200, { token: staffToken, body: { tier: "pro" } });

  const requesters: Requester[] = [];
  for (let i = 0; i < count; i += 1) {
    const account = await register(`requester-${i}`);
    await toPro(account.id);
    const requesterToken = await token(baseUrl, account.email, password);
    const created = await call(baseUrl, "POST", "/experiments", 201, {
      token: requesterToken,
      body: micRequest(),
      headers: { "idempotency-key": randomUUID() },
    });
    requesters.push({ token: requesterToken, experimentId: created.experiment_id });
  }

  const operator = await register("operator");
  const first = await token(baseUrl, operator.email, password);
  const profile = await call(baseUrl, "POST", "/operator/profile", [200, 201], {
    token: first,
    body: operatorProfile("Bench lab"),
  });
  await call(baseUrl, "POST", `/admin/operators/${profile.operator_id}/verify`, 200, {
    token: staffToken,
    body: verificationRecord(),
  });
  // The operator role reaches identity through an event; the change also ends the tokens issued
  // before it (401). Poll, bounded, until either shows.
  for (let attempt = 0; ; attempt += 1) {
    const me = await fetch(`${baseUrl}/auth/me`, { headers: { authorization: `Bearer ${first}` } });
    if (
      me.status === 401 ||
      (me.status === 200 &&
        ((await me.json()) as { account?: { role?: string } }).account?.role === "operator")
    )
      break;
    if (attempt >= 100) throw new Error(`the operator role did not reach identity (${me.status})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await toPro(operator.id);
  return { requesters, operatorToken: await token(baseUrl, operator.email, password) };
}
