import { expect } from "vitest";

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

  const tooLarge = await fetch(`${target.baseUrl}/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "x@example.org", password: "p".repeat(2_000_000), name: "X" }),
  });
  expect(tooLarge.status).toBe(413);
  expect((await json(tooLarge)).error.code).toBe("payload_too_large");
}
