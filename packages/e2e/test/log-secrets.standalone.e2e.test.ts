/**
 * Secrets never reach the log (issue 13, item 4), and the log is readable (issue 16, item 3):
 * one access line per request, whoever answered it, and no line repeats a key. The standalone host runs in this process
 * with its logger at debug level writing into an array; the test drives the error paths that
 * handle credentials (registration with a NUL, wrong passwords, bad and forged Bearer tokens,
 * bad and revoked API keys, webhook secret routes, statements that fail in the database while
 * carrying a password hash) and then reads every line back looking for each credential.
 */
import { connect, createServer } from "node:net";
import { type Clock, createLogger, systemClock } from "@petri/service-kit";
import { repeatedLogKeys } from "@petri/fixtures/service-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStandaloneHost } from "./support/hosts.js";
import { postDeclaredLengthOnly } from "./support/post-body.js";

const JSON_HEADERS = { "content-type": "application/json" };

/** A TCP port on 127.0.0.1 that nothing listens on (bound, read, released). */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe("standalone mode: secrets never reach the log", () => {
  const lines: string[] = [];
  /** Requests sent to the gateway, each of which must leave one access line. */
  let requestsSent = 0;
  let host: Awaited<ReturnType<typeof startStandaloneHost>>;
  let base: string;
  // The host's clock runs with the system's, moved ahead at the end to expire a real token.
  let aheadMs = 0;
  const clock: Clock = { now: () => new Date(Date.now() + aheadMs), sleep: systemClock.sleep };

  beforeAll(async () => {
    const logger = createLogger({
      service: "e2e-log-secrets",
      level: "debug",
      destination: { write: (line: string) => void lines.push(line) },
    });
    host = await startStandaloneHost("petri-log-secrets", {}, { logger, clock });
    base = host.petri.url;
  });
  afterAll(() => host?.stop());

  /**
   * One request, repeated (at most 4 times, backing off) while the answer is 503 "unavailable":
   * on a loaded machine an internal call can miss its deadline, and 503 means "try again".
   * No step of this test expects a 503.
   */
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    for (let attempt = 1; ; attempt += 1) {
      requestsSent += 1;
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { ...(body !== undefined && JSON_HEADERS), ...headers },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      if (response.status !== 503 || attempt === 4) {
        return { status: response.status, text, body: text ? JSON.parse(text) : undefined };
      }
      await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
    }
  };
  /** The status of a call, checked with the body in the failure message. */
  const expectStatus = async (expected: number, ...args: Parameters<typeof call>) => {
    const response = await call(...args);
    expect(response.status, `${args[0]} ${args[1]}: ${response.text}`).toBe(expected);
  };
  const register = (email: string, password: string, name = "Log Test") =>
    call("POST", "/auth/register", { email, password, name });

  /** Runs `drive` with one of identity's tables renamed, so its statements fail in the database. */
  async function withIdentityTableAway(table: string, drive: () => Promise<void>): Promise<void> {
    const identity = host.petri.database.forSchema<any>("identity");
    await identity.schema.alterTable(table).renameTo(`${table}_away`).execute();
    try {
      await drive();
    } finally {
      await identity.schema.alterTable(`${table}_away`).renameTo(table).execute();
    }
  }

  it("drives the credential error paths and finds no password, hash, key, token or secret in the log", async () => {
    const run = Date.now();
    const secrets = new Map<string, string>();
    const remember = (label: string, value: string) => {
      expect(value, label).toBeTruthy();
      secrets.set(label, value);
      return value;
    };

    // An account with every kind of credential.
    const email = `log-secrets-${run}@example.org`;
    const password = remember("password", `Pw-${run}-correct horse battery staple`);
    const registered = await register(email, password);
    expect(registered.status, registered.text).toBe(201);
    const firstKey = remember("first API key", registered.body.api_key_secret);
    const stored = await host.petri.database
      .forSchema<any>("identity")
      .selectFrom("accounts")
      .select("password_hash")
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    remember("password hash", stored.password_hash as string);
    expect(stored.password_hash).toMatch(/^\$argon2id\$/);

    const issued = await call("POST", "/auth/token", { email, password });
    expect(issued.status, issued.text).toBe(200);
    const accessToken = remember("access token", issued.body.access_token);
    const bearer = { authorization: `Bearer ${accessToken}` };
    const created = await call("POST", "/auth/api-keys", { name: "log test" }, bearer);
    expect(created.status, created.text).toBe(201);
    const secondKey = remember("second API key", created.body.api_key_secret);
    const unusedKeyResponse = await call("POST", "/auth/api-keys", { name: "never used" }, bearer);
    expect(unusedKeyResponse.status, unusedKeyResponse.text).toBe(201);
    const unusedKey = remember("unused API key", unusedKeyResponse.body.api_key_secret);

    // Registration with a NUL in each field (the audit's case); 422 once input rejects NULs.
    const nulPasswords = [0, 1, 2].map((i) =>
      remember(`NUL registration password ${i}`, `Pw-${run}-nul-${i}-secret`),
    );
    // Their e-mails are bound parameters of the failing insert: not in the log either.
    const nulNameEmail = remember("e-mail of the NUL name registration", `nul-name-${run}@example.org`);
    const nulName = await register(nulNameEmail, nulPasswords[0]!, "a\u0000b");
    const nulEmail = await register(`nul\u0000email-${run}@example.org`, nulPasswords[1]!);
    const nulPassword = await register(`nul-password-${run}@example.org`, `${nulPasswords[2]}\u0000tail`);
    expect([422, 500], nulName.text).toContain(nulName.status);
    expect([422, 500], nulEmail.text).toContain(nulEmail.status);
    expect([201, 422, 500], nulPassword.text).toContain(nulPassword.status);
    if (nulPassword.status === 201) remember("NUL password's API key", nulPassword.body.api_key_secret);

    // Wrong and unknown credentials on login.
    await expectStatus(401, "POST", "/auth/token", { email, password: `${password}-wrong` });
    await expectStatus(401, "POST", "/auth/token", { email: `nobody-${run}@example.org`, password });

    // Bearer tokens: garbage, a forged signature, a forged expired token, a JWT in the API key header.
    const [header, payload, signature] = accessToken.split(".");
    const forged = remember("forged token", `${header}.${payload}.${signature!.slice(0, -4)}AAAA`);
    const expiredPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, "base64url").toString()), exp: 1_000_000 }),
    ).toString("base64url");
    const expired = remember("expired token", `${header}.${expiredPayload}.${signature}`);
    const garbage = remember("garbage bearer", `garbage-bearer-${run}`);
    for (const authorization of [
      `Bearer ${forged}`,
      `Bearer ${expired}`,
      `Bearer ${garbage}`,
      `Basic ${garbage}`,
    ]) {
      const response = await call("GET", "/auth/me", undefined, { authorization });
      expect(response.status, `${authorization.split(" ")[0]}: ${response.text}`).toBe(401);
    }
    await expectStatus(401, "GET", "/auth/me", undefined, { "x-api-key": accessToken });

    // API keys: malformed, well-formed but unknown, revoked.
    const malformed = remember("malformed API key", `petri_sk_${run}malformed`);
    const unknown = remember("unknown API key", `${firstKey.slice(0, -10)}${"0".repeat(10)}`);
    for (const key of [malformed, unknown]) {
      await expectStatus(401, "GET", "/auth/me", undefined, { "x-api-key": key });
    }
    const revoked = await call("DELETE", `/auth/api-keys/${created.body.api_key.id}`, undefined, bearer);
    expect(revoked.status, revoked.text).toBeLessThan(300);
    await expectStatus(401, "GET", "/auth/me", undefined, { "x-api-key": secondKey });

    // Webhook signing secrets: fetched, rotated, then errors on the webhook routes.
    const withKey = { "x-api-key": firstKey };
    const first = await call("POST", "/webhooks/secret", undefined, withKey);
    expect(first.status, first.text).toBe(201);
    remember("webhook secret", first.body.secret);
    const rotated = await call("POST", "/webhooks/secret/rotate", undefined, withKey);
    expect(rotated.status, rotated.text).toBe(200);
    remember("rotated webhook secret", rotated.body.secret);
    await expectStatus(409, "POST", "/webhooks/secret", undefined, withKey);
    await expectStatus(422, "POST", "/webhooks/test", { url: "https://10.0.0.1/hook" }, withKey);
    await expectStatus(422, "POST", "/webhooks/test", { nonsense: true }, withKey);
    const refused = await call(
      "POST",
      "/webhooks/test",
      { url: `https://127.0.0.1:${await closedPort()}/hook`, event_type: "claimed" },
      withKey,
    );
    expect(refused.status, refused.text).toBeLessThan(500);
    await expectStatus(404, "GET", "/webhooks/deliveries/whd_nonexistent", undefined, withKey);
    await expectStatus(404, "POST", "/webhooks/deliveries/whd_nonexistent/replay", undefined, withKey);

    // Statements that fail in the database: a registration (its parameters hold the new
    // account's password hash) and an API key lookup.
    const failingPassword = remember(
      "password of a registration the database refuses",
      `Pw-${run}-db-failure`,
    );
    await withIdentityTableAway("accounts", async () => {
      const failingEmail = remember(
        "e-mail of the registration the database refuses",
        `db-failure-${run}@example.org`,
      );
      const failed = await register(failingEmail, failingPassword);
      expect(failed.status, failed.text).toBeGreaterThanOrEqual(500);
      expect(failed.body.error.code).toBeTruthy();
    });
    await withIdentityTableAway("api_keys", async () => {
      const failed = await call("GET", "/auth/me", undefined, { "x-api-key": unusedKey });
      expect(failed.status, failed.text).toBeGreaterThanOrEqual(500);
    });

    // A genuine access token, expired: the host's clock moves past its lifetime.
    const stillValid = await call("GET", "/auth/me", undefined, bearer);
    expect(stillValid.status, stillValid.text).toBe(200);
    aheadMs = 2 * 60 * 60_000;
    const expiredForReal = await call("GET", "/auth/me", undefined, bearer);
    expect(expiredForReal.status, expiredForReal.text).toBe(401);

    // Every line is JSON; the database failures were logged (so the check below saw them).
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, any>);
    const databaseFailures = parsed.filter((line) => line.err?.code === "42P01");

    const log = lines.join("");
    for (const [label, value] of secrets) {
      expect(log.includes(value), `${label} appears in the log`).toBe(false);
      expect(log.includes(JSON.stringify(value).slice(1, -1)), `${label} appears JSON-escaped`).toBe(false);
    }
    // Nothing hash- or secret-shaped, whoever's it is.
    for (const shape of ["$argon2", "whsec_", "petri_sk_"]) expect(log, shape).not.toContain(shape);
    expect(log).not.toMatch(/eyJ[\w-]+\.eyJ/);
    expect(databaseFailures.length, "the failing statements were logged").toBeGreaterThanOrEqual(2);
    console.log(
      `log-secrets: checked ${lines.length} log lines (${databaseFailures.length} database failures) for ${secrets.size} secrets`,
    );
  });

  it("leaves one access line per request, the ones Node and the body limit answer included, and no repeated key", async () => {
    const apiKey = `petri_sk_${"k".repeat(40)}`;
    // Headers over Node's limit: answered by the HTTP parser (431), before the app sees them.
    const oversized = await new Promise<string>((resolve, reject) => {
      const socket = connect(host.petri.port, "127.0.0.1");
      const chunks: Buffer[] = [];
      socket.on("data", (chunk: Buffer) => chunks.push(chunk));
      socket.on("error", reject);
      socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
      socket.write(
        `GET /auth/me HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${apiKey}\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
      );
    });
    expect(oversized).toMatch(/^HTTP\/1\.1 431 /);
    // A body over the limit by its declared length (413), and a path no route has (404).
    const tooLarge = await postDeclaredLengthOnly(`${base}/auth/register`, {}, 2 * 1024 * 1024);
    expect(tooLarge.status).toBe(413);
    await expectStatus(404, "GET", "/no/such/route/exp_not-an-id");

    const parsed = lines.map((line) => JSON.parse(line) as Record<string, any>);
    const access = parsed.filter((line) => line.msg === "request");
    expect(access.length, "one access line per request").toBe(requestsSent + 2);
    expect(access.filter((line) => line.status === 431)).toEqual([
      expect.objectContaining({ method: "GET", route: "(unmatched)", service: "gateway" }),
    ]);
    expect(access.filter((line) => line.status === 413)).toEqual([
      expect.objectContaining({ method: "POST", route: "/auth/register" }),
    ]);
    expect(
      access.filter((line) => line.status === 404 && line.route === "(unmatched)").length,
    ).toBeGreaterThanOrEqual(1);
    for (const line of access) {
      expect(line).toMatchObject({
        service: "gateway",
        route: expect.any(String),
        status: expect.any(Number),
      });
      expect(line.request_id, JSON.stringify(line)).toEqual(expect.any(String));
      expect(line.route).not.toContain("exp_not-an-id");
    }
    expect(lines.join("")).not.toContain(apiKey);
    // Every line of the process, the services' and the host's included, has each key once.
    for (const line of lines) expect(repeatedLogKeys(line), line).toEqual([]);
  });
});
