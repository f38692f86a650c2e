/**
 * Failed-login limits seen from outside: an account guessed at from one address is locked
 * there, and a colleague behind the same address still logs in.
 */
import { request } from "node:http";
import { expect } from "vitest";
import type { Target } from "./scenarios.js";

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/**
 * POSTs JSON from `localAddress` (another loopback address than the rest of the suite's
 * requests, so this office's quotas are its own).
 */
function postFrom(localAddress: string, url: string, body: unknown): Promise<Answer> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: "POST",
        localAddress,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: JSON.parse(Buffer.concat(chunks).toString("utf8")),
          }),
        );
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(payload);
  });
}

const OFFICE = "127.0.0.2";

/**
 * One try: true when Ada's lock was checked inside the window that locked her, false when
 * that window had already ended (the limits are fixed windows on the wall clock here).
 */
async function lockoutWithinOneWindow(target: Target, round: number): Promise<boolean> {
  const tag = `${Date.now()}-${round}`;
  const ada = { email: `ada+${tag}@example.org`, password: "ada's long password" };
  const bob = { email: `bob+${tag}@example.org`, password: "bob's long password" };
  for (const person of [ada, bob]) {
    const registered = await postFrom(OFFICE, `${target.baseUrl}/auth/register`, {
      ...person,
      name: "Office",
    });
    expect(registered.status).toBe(201);
  }
  const login = (email: string, password: string) =>
    postFrom(OFFICE, `${target.baseUrl}/auth/token`, { email, password });

  // At most 20 failures fit in one window, so 41 attempts reach a 429 even across an edge.
  let locked: Answer | undefined;
  for (let i = 0; i < 41 && !locked; i += 1) {
    const answer = await login(ada.email, `guess ${i}`);
    if (answer.status === 429) locked = answer;
    else expect(answer.status).toBe(401);
  }
  expect(locked?.body.error).toMatchObject({ code: "rate_limit_exceeded", details: { limit: 20 } });
  const resetAt = Number(locked!.headers["x-ratelimit-reset"]) * 1000;

  const adaRight = await login(ada.email, ada.password);
  const bobRight = await login(bob.email, bob.password);
  // Bob is behind the same address: never locked out by Ada's failures.
  expect(bobRight.status).toBe(200);
  if (Date.now() >= resetAt) return false;
  // Still inside the window: Ada is refused even with the right password.
  expect(adaRight.status).toBe(429);
  return true;
}

export async function loginLockoutSparesTheOffice(target: Target): Promise<void> {
  for (let round = 0; round < 3; round += 1) {
    if (await lockoutWithinOneWindow(target, round)) return;
  }
  throw new Error("every try ended after its rate-limit window; the lock was never checked");
}
