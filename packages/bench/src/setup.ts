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
  /** An operator's token (the operator side of the mixed workload, the claims of the webhook row). */
  operatorToken: string;
  /**
   * "custom": one requester with staff-set limits high enough for the whole run; "pro": the
   * load spread over pro-tier requesters (a server without the custom tier answers 422).
   */
  limits: "custom" | "pro";
}

/** The most concurrent jobs an operator profile may declare: the claims of a run's rounds. */
export const OPERATOR_CAPACITY = 1000;

/** Per account, far above what a run sends (a run of the defaults sends well under 100,000 a day). */
export const CUSTOM_LIMITS = { per_minute: 100_000, per_day: 10_000_000 };

/**
 * A JSON call that expects `status`. Setup's anonymous calls share the per-address quota
 * (60 a minute) with the start-up probes, so a 429 waits out its Retry-After (fixed windows:
 * at most a minute), a bounded number of times.
 */
export async function call(
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
 * The accounts the load comes from, each with one experiment to read, and one verified operator.
 * Staff first try the custom tier (PATCH /admin/accounts/{id} with rate_limits): then one
 * requester carries the whole load. A server without it answers 422, and `count` requesters
 * moved to "pro" (1,000 requests a minute and 10,000 a day each) share the load instead.
 * Tokens are issued after the tier and role changes, as a token carries the tier and role it
 * was issued with. The first requester has a webhook signing secret (the webhook row).
 */
export async function preparePopulation(
  baseUrl: string,
  count: number,
  log: (line: string) => void = () => undefined,
): Promise<Population> {
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
  const toCustom = async (id: string): Promise<boolean> => {
    const answer = await call(baseUrl, "PATCH", `/admin/accounts/${id}`, [200, 422], {
      token: staffToken,
      body: { tier: "custom", rate_limits: CUSTOM_LIMITS },
    });
    if (answer?.error)
      log(`custom tier refused (${answer.error.message}): spreading over ${count} pro accounts`);
    return !answer?.error;
  };

  const first = await register("requester-0");
  const limits = (await toCustom(first.id)) ? "custom" : "pro";
  const setTier = limits === "custom" ? toCustom : toPro;
  const requesters: Requester[] = [];
  for (let i = 0; i < (limits === "custom" ? 1 : count); i += 1) {
    const account = i === 0 ? first : await register(`requester-${i}`);
    if (limits === "pro") await toPro(account.id);
    const requesterToken = await token(baseUrl, account.email, password);
    const created = await call(baseUrl, "POST", "/experiments", 201, {
      token: requesterToken,
      body: micRequest(),
      headers: { "idempotency-key": randomUUID() },
    });
    requesters.push({ token: requesterToken, experimentId: created.experiment_id });
  }

  await call(baseUrl, "POST", "/webhooks/secret", [201, 409], { token: requesters[0]!.token });

  const operator = await register("operator");
  const firstToken = await token(baseUrl, operator.email, password);
  const profile = await call(baseUrl, "POST", "/operator/profile", [200, 201], {
    token: firstToken,
    // Every claim of the webhook row stays active (nothing is approved): room for all of them.
    body: {
      ...operatorProfile("Bench lab"),
      availability: { current_capacity: "high", max_concurrent_jobs: OPERATOR_CAPACITY, vacations: [] },
    },
  });
  await call(baseUrl, "POST", `/admin/operators/${profile.operator_id}/verify`, 200, {
    token: staffToken,
    body: verificationRecord(),
  });
  // The operator role reaches identity through an event; the change also ends the tokens issued
  // before it (401). Poll, bounded, until either shows.
  for (let attempt = 0; ; attempt += 1) {
    const me = await fetch(`${baseUrl}/auth/me`, { headers: { authorization: `Bearer ${firstToken}` } });
    if (
      me.status === 401 ||
      (me.status === 200 &&
        ((await me.json()) as { account?: { role?: string } }).account?.role === "operator")
    )
      break;
    if (attempt >= 100) throw new Error(`the operator role did not reach identity (${me.status})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await setTier(operator.id);
  return { requesters, operatorToken: await token(baseUrl, operator.email, password), limits };
}
