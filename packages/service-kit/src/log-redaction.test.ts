import { describe, expect, it } from "vitest";
import { captureLogs } from "../test/log-capture.js";
import {
  MAX_LOG_DEPTH,
  REDACTED,
  isSensitiveLogField,
  redactSecretsInText,
  sanitizeLogError,
  sanitizeLogLine,
  sanitizeLogValue,
} from "./log-redaction.js";

// Test-only values in the production shapes (nothing here was ever a real credential).
const ARGON2 = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaA";
const JWT =
  "eyJhbGciOiJFZERTQSIsImtpZCI6ImsxIn0.eyJzdWIiOiJ1c3JfMSIsImV4cCI6MTcwMDAwMDAwMH0.c2lnbmF0dXJlc2lnbmF0dXJl-_x";
const API_KEY = "petri_sk_0123456789ABCDEFGHIJabcdefghij000000";
const WEBHOOK_SECRET = "whsec_dGVzdC1vbmx5LXNpZ25pbmctc2VjcmV0LWJ5dGVzISE=";
const BEARER_VALUE = "opaque-bearer-credential-42";
const SECRETS = [ARGON2, JWT, API_KEY, WEBHOOK_SECRET, BEARER_VALUE];

function expectClean(value: unknown): void {
  const text = JSON.stringify(value);
  for (const secret of SECRETS) expect(text).not.toContain(secret);
  // No fragment long enough to matter survives either (a hash's tail, a token's signature).
  expect(text).not.toContain("aGFzaGhhc2hoYXNo");
  expect(text).not.toContain("c2lnbmF0dXJl");
}

describe("redactSecretsInText", () => {
  it.each([
    ["an argon2 hash", `stored ${ARGON2} for the account`],
    ["a JWT", `token: ${JWT}; expired`],
    ["an API key", `unknown key ${API_KEY}.`],
    ["a webhook secret", `secret "${WEBHOOK_SECRET}" rotated`],
    ["a Bearer credential", `Authorization: Bearer ${BEARER_VALUE}`],
    ["a bearer credential in lower case", `authorization: bearer ${BEARER_VALUE}`],
  ])("replaces %s and keeps the words around it", (_name, text) => {
    const redacted = redactSecretsInText(text);
    expectClean(redacted);
    expect(redacted).toContain(REDACTED);
    expect(redacted.split(" ")[0]).toBe(text.split(" ")[0]);
  });

  it("catches argon2i and argon2d hashes and a truncated API key", () => {
    expect(redactSecretsInText("$argon2i$v=19$m=1,t=1,p=1$YWJj$ZGVm")).toBe(REDACTED);
    expect(redactSecretsInText("$argon2d$v=19$m=1,t=1,p=1$YWJj$ZGVm")).toBe(REDACTED);
    expect(redactSecretsInText("petri_sk_short")).toBe(REDACTED);
  });

  it("leaves ordinary text alone, including ids, e-mails and SQL", () => {
    for (const text of [
      'duplicate key value violates unique constraint "accounts_email_key"',
      "usr_01J9ZK3Q4V5W6X7Y8Z9A0B1C2D claimed exp_01J9ZK3Q4V5W6X7Y8Z9A0B1C2D",
      'insert into "accounts" ("email", "password_hash") values ($1, $2)',
      "a.b.c and eyJ alone is not a token",
      "price $12.50",
    ]) {
      expect(redactSecretsInText(text)).toBe(text);
    }
  });

  it("stays linear on inputs built to make a regex backtrack", () => {
    // Quadratic or worse scanning of these would not finish within the test's timeout.
    const inputs = [
      "eyJ".repeat(200_000),
      `eyJ${"a".repeat(300_000)}.`,
      "bearer ".repeat(100_000),
      `${"$argon2".repeat(50_000)}"`,
      `whsec_${"=".repeat(300_000)}`,
    ];
    for (const input of inputs) expect(typeof redactSecretsInText(input)).toBe("string");
  });
});

describe("isSensitiveLogField", () => {
  it.each([
    "password",
    "new_password",
    "passwordHash",
    "password_hash",
    "authorization",
    "Authorization",
    "x-api-key",
    "apiKey",
    "api_key",
    "secret",
    "client_secret",
    "token",
    "access_token",
    "refreshToken",
    "x-petri-principal",
    "cookie",
    "set-cookie",
    "secret_hash",
  ])("%s is redacted", (name) => expect(isSensitiveLogField(name)).toBe(true));

  it.each(["email", "account_id", "tokens_used", "procedure", "secret_id", "hash_algorithm"])(
    "%s is kept",
    (name) => expect(isSensitiveLogField(name)).toBe(false),
  );
});

describe("sanitizeLogValue", () => {
  it("redacts by field name at any depth and inside arrays, without touching the input", () => {
    const input = {
      a: { b: { c: { d: { e: { password: "hunter2-deep" } } } } },
      list: [{ authorization: "Basic dXNlcjpwYXNz" }, { keep: "visible" }],
    };
    const out = sanitizeLogValue(input) as any;
    expect(out.a.b.c.d.e.password).toBe(REDACTED);
    expect(out.list[0].authorization).toBe(REDACTED);
    expect(out.list[1].keep).toBe("visible");
    expect(input.a.b.c.d.e.password).toBe("hunter2-deep");
  });

  it("redacts by shape in any string value: nested objects, arrays, map keys' values", () => {
    const out = sanitizeLogValue({
      body: { note: `my key is ${API_KEY}` },
      history: [[`old ${WEBHOOK_SECRET}`], { nested: [{ raw: JWT }] }],
      row: { value: ARGON2, header: `Bearer ${BEARER_VALUE}` },
      when: new Date("2026-01-01T00:00:00Z"),
    }) as any;
    expectClean(out);
    expect(out.when).toBe("2026-01-01T00:00:00.000Z");
  });

  it("cuts objects deeper than MAX_LOG_DEPTH instead of writing them unchecked", () => {
    let deep: Record<string, unknown> = { leaf: ARGON2 };
    for (let level = 0; level < MAX_LOG_DEPTH + 5; level += 1) deep = { next: deep };
    const text = JSON.stringify(sanitizeLogValue(deep));
    expect(text).toContain("[depth limit]");
    expect(text).not.toContain("argon2");
  });

  it("writes cycles and binary buffers as markers", () => {
    const cycle: Record<string, unknown> = { name: "loop" };
    cycle.self = cycle;
    const out = sanitizeLogValue({ cycle, bytes: Buffer.from("raw key material") }) as any;
    expect(out.cycle.self).toBe("[circular]");
    expect(out.bytes).toBe("[binary 16 bytes]");
  });
});

describe("sanitizeLogError", () => {
  it("redacts secrets in the message, the stack, the error's own fields and its causes", () => {
    const root = new Error(`login failed for ${ARGON2}`);
    const middle = new Error(`token ${JWT} rejected`, { cause: root });
    const top = Object.assign(new Error(`calling with ${API_KEY}`, { cause: middle }), {
      request: { headers: { authorization: `Bearer ${BEARER_VALUE}` }, body: { secret: WEBHOOK_SECRET } },
      attempts: [WEBHOOK_SECRET],
    });
    const out = sanitizeLogError(top) as any;
    expectClean(out);
    expect(out.type).toBe("Error");
    expect(out.stack).toContain("log-redaction.test.ts");
    expect(out.cause.cause.message).toBe(`login failed for ${REDACTED}`);
    expect(out.request.headers.authorization).toBe(REDACTED);
  });

  it("serialises an AggregateError's errors", () => {
    const out = sanitizeLogError(new AggregateError([new Error(`bad ${API_KEY}`)], "several")) as any;
    expect(out.errors[0].message).toBe(`bad ${REDACTED}`);
  });

  it("keeps a database error's diagnosis and drops the statement's data (PGlite and pg shapes)", () => {
    // The fields node-postgres' DatabaseError and PGlite's error carry (PGlite adds query/params).
    const error = Object.assign(new Error('invalid input syntax for type integer: "victim@example.org"'), {
      name: "error",
      severity: "ERROR",
      code: "22P02",
      detail: "Key (email)=(victim@example.org) already exists.",
      hint: undefined,
      where: "unnamed portal parameter $1 = 'victim@example.org'",
      schema: "identity",
      table: "accounts",
      column: undefined,
      constraint: undefined,
      routine: "pg_strtoint32_safe",
      file: "numutils.c",
      line: "618",
      query: 'insert into "accounts" ("email", "password_hash") values ($1, $2)',
      params: ["victim@example.org", "not-a-shape-we-know"],
      queryOptions: { rowMode: "object" },
    });
    const out = sanitizeLogError(error) as any;
    const text = JSON.stringify(out);
    expect(text).not.toContain("victim@example.org");
    expect(text).not.toContain("not-a-shape-we-know");
    expect(out).toMatchObject({
      code: "22P02",
      severity: "ERROR",
      schema: "identity",
      table: "accounts",
      routine: "pg_strtoint32_safe",
      message: `invalid input syntax for type integer: "${REDACTED}"`,
    });
    for (const dropped of ["params", "queryOptions", "detail", "where", "query", "file", "line"]) {
      expect(out).not.toHaveProperty(dropped);
    }
    expect(out.stack.split("\n")[0]).toBe(`error: invalid input syntax for type integer: "${REDACTED}"`);
  });

  it("keeps the message of a database error outside the data-exception class", () => {
    const error = Object.assign(
      new Error('duplicate key value violates unique constraint "accounts_email_key"'),
      {
        severity: "ERROR",
        code: "23505",
        constraint: "accounts_email_key",
        params: ["victim@example.org"],
      },
    );
    const out = sanitizeLogError(error) as any;
    expect(out.message).toBe('duplicate key value violates unique constraint "accounts_email_key"');
    expect(out.constraint).toBe("accounts_email_key");
    expect(out).not.toHaveProperty("params");
  });
});

describe("sanitizeLogLine", () => {
  it("passes a line without markers through as it is", () => {
    const line = '{"level":"info","msg":"claimed","experiment_id":"exp_1"}\n';
    expect(sanitizeLogLine(line)).toBe(line);
  });

  it("rewrites a line holding a secret shape as valid JSON without it, names redacted too", () => {
    const line = `${JSON.stringify({ level: "info", trace: `x ${JWT}`, nested: { password: "p", key: API_KEY } })}\n`;
    const out = sanitizeLogLine(line);
    expect(out.endsWith("\n")).toBe(true);
    expectClean(out);
    expect(JSON.parse(out)).toEqual({
      level: "info",
      trace: `x ${REDACTED}`,
      nested: { password: REDACTED, key: REDACTED },
    });
  });

  it("replaces a line it cannot parse rather than write it unchecked", () => {
    const out = sanitizeLogLine(`not json ${WEBHOOK_SECRET}\n`);
    expectClean(out);
    expect(JSON.parse(out)).toMatchObject({ level: "error" });
  });
});

describe("createLogger redaction", () => {
  it("an Error logged first, or under err, never shows its secrets, in the line or its message", () => {
    const { logger, lines } = captureLogs();
    const dbError = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
      severity: "ERROR",
      code: "22021",
      params: ["victim@example.org", ARGON2, "a\u0000b"],
    });
    logger.error(dbError);
    logger.error({ err: dbError, procedure: "/petri.identity.v1.IdentityService/Register" }, "unhandled");
    logger.warn({ err: new Error(`refused ${JWT}`, { cause: dbError }) });
    logger.info(`interpolated %s`, API_KEY);
    logger
      .child({ token: JWT, note: WEBHOOK_SECRET })
      .info({ headers: { authorization: `Bearer ${BEARER_VALUE}` } });
    expect(lines).toHaveLength(5);
    expectClean(lines);
    expect(JSON.stringify(lines)).not.toContain("victim@example.org");
    expect(lines[0]).toMatchObject({
      err: { type: "DatabaseError", code: "22021" },
      msg: expect.stringContaining("invalid byte sequence"),
    });
    expect(lines[1]).toMatchObject({ err: { code: "22021" }, msg: "unhandled" });
    expect(lines[2]!.msg).toBe(`refused ${REDACTED}`);
    expect(lines[2]!.err.cause).toMatchObject({ code: "22021" });
    expect(lines[3]!.msg).toBe(`interpolated ${REDACTED}`);
    expect(lines[4]).toMatchObject({ token: REDACTED, headers: { authorization: REDACTED } });
  });

  it("redacts a child's and a grandchild's bindings by name, and keeps each level's bindings", () => {
    const { logger, lines } = captureLogs();
    const child = logger.child({ service: "identity", password: "plain-child-password" });
    child.child({ request: { cookie: "session=plain-cookie" }, step: 2 }).info("grandchild");
    child.info("child");
    expect(JSON.stringify(lines)).not.toMatch(/plain-child-password|plain-cookie/);
    expect(lines[0]).toMatchObject({
      service: "identity",
      password: REDACTED,
      request: { cookie: REDACTED },
      step: 2,
    });
    expect(lines[1]).not.toHaveProperty("step");
  });

  it("writes a placeholder instead of throwing when an argument cannot be read", () => {
    const { logger, lines } = captureLogs();
    const hostile = {
      get password(): string {
        throw new Error("no");
      },
      get boom(): string {
        throw new Error(`leaks ${API_KEY}`);
      },
    };
    expect(() => logger.info(hostile, "hostile")).not.toThrow();
    expect(lines).toHaveLength(1);
    expectClean(lines);
    expect(lines[0]).toMatchObject({ log_arguments: "[unreadable]" });
  });
});
