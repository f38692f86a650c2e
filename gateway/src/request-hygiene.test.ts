/**
 * Input hygiene at the edge (lib/request-hygiene.ts): text PostgreSQL refuses, deep JSON and
 * malformed path ids are answered by the gateway with the error envelope, before any service
 * call, on every route.
 */
import { Tier } from "@petri/contracts/identity";
import { FakeClock } from "@petri/testkit";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeIdentity, bodyOf, from, gatewayFor, json } from "../test/support/fake-identity.js";

const SOURCE = "198.51.100.31";

let identity: FakeIdentity;
let app: Awaited<ReturnType<typeof gatewayFor>>;
let apiKey: string;

beforeEach(async () => {
  identity = await FakeIdentity.create(new FakeClock("2026-03-02T10:00:00.000Z"));
  app = await gatewayFor(identity, { maxBodyBytes: 1_048_576 });
  apiKey = identity.addAccount({ tier: Tier.PRO }).secret;
});

afterEach(() => {
  vi.restoreAllMocks();
});

const authed = (init: RequestInit = {}) => ({
  ...init,
  headers: { "x-api-key": apiKey, ...(init.headers as Record<string, string>) },
});

async function expectInvalid(response: Response, field: string) {
  expect(response.status).toBe(422);
  const body = await bodyOf(response);
  expect(Object.keys(body)).toEqual(["error"]);
  expect(body.error.code).toBe("validation_failed");
  expect(body.error.details.errors).toEqual(
    expect.arrayContaining([{ field, code: expect.any(String), message: expect.any(String) }]),
  );
  return body;
}

describe("text PostgreSQL refuses is 422 naming the field", () => {
  it("GET /hypotheses?search=a%00b", async () => {
    await expectInvalid(await app.request("/hypotheses?search=a%00b", authed(), from(SOURCE)), "search");
  });

  it("POST /hypotheses with NUL in the title", async () => {
    const response = await app.request(
      "/hypotheses",
      authed(json({ title: "t\u0000", statement: "s" })),
      from(SOURCE),
    );
    await expectInvalid(response, "title");
  });

  it("POST /auth/register with NUL in the name, and POST /auth/token with NUL in the email", async () => {
    const register = await app.request(
      "/auth/register",
      json({ email: "ada@example.org", password: "long enough password", name: "A\u0000da" }),
      from(SOURCE),
    );
    await expectInvalid(register, "name");
    const token = await app.request(
      "/auth/token",
      json({ email: "ada@example.org\u0000", password: "long enough password" }),
      from(SOURCE),
    );
    await expectInvalid(token, "email");
    // Refused by the gateway itself, not only by the service's own interceptor behind it.
    expect(identity.count("RegisterAccount")).toBe(0);
    expect(identity.count("IssueToken")).toBe(0);
  });

  it("a lone surrogate is refused like NUL, in a nested value and in an object key", async () => {
    const nested = await app.request(
      "/hypotheses",
      authed(json('{"title":"ok","tags":["fine","\\ud800"]}')),
      from(SOURCE),
    );
    await expectInvalid(nested, "tags.1");
    const key = await app.request("/hypotheses", authed(json('{"\\udc00":1}')), from(SOURCE));
    await expectInvalid(key, '"\\udc00"');
  });

  it("a query parameter's name is checked too", async () => {
    await expectInvalid(await app.request("/hypotheses?a%00=1", authed(), from(SOURCE)), '"a\\u0000"');
  });

  it("a free-text path parameter that cannot name anything (refused text, too long) is 404", async () => {
    for (const path of [
      "/cloud-labs/providers/lab%00x",
      `/cloud-labs/providers/${"p".repeat(101)}`,
      "/templates/t%00",
      `/templates/${"t".repeat(300)}`,
    ]) {
      const response = await app.request(path, authed(), from(SOURCE));
      expect(response.status, path).toBe(404);
      expect(((await response.json()) as any).error.code, path).toBe("not_found");
    }
  });
});

describe("the audit's other operations, all through the one middleware", () => {
  const EXP = "exp_01jd0c6r5v8q2m7x4k9w3t1b6n";
  it.each([
    ["POST", "/operator/profile", { lab_name: "L\u0000" }, "lab_name"],
    ["POST", "/cloud-labs/engine/start", { query: "MIC\u0000" }, "query"],
    ["POST", "/cloud-labs/validate", { intake: { title: "x\u0000" } }, "intake.title"],
    ["POST", `/experiments/${EXP}/dispute`, { description: "\u0000" }, "description"],
    ["GET", `/experiments/${EXP}/payment?x=%00`, undefined, "x"],
    ["GET", "/webhooks/deliveries?experiment_id=exp%00", undefined, "experiment_id"],
    ["GET", "/cloud-labs/submissions?status=a%00", undefined, "status"],
    ["GET", `/experiments/${EXP}/matches?limit=1%00`, undefined, "limit"],
  ] as const)("%s %s is 422 naming the field", async (method, path, body, field) => {
    const init = body === undefined ? authed({ method }) : authed({ ...json(body), method });
    await expectInvalid(await app.request(path, init, from(SOURCE)), field);
  });
});

describe("nesting is bounded before parsing", () => {
  it("a body nested 5,000 levels is 422 naming the limit, not 500", async () => {
    const deep = `{"title":${"[".repeat(5_000)}${"]".repeat(5_000)}}`;
    const body = await expectInvalid(await app.request("/hypotheses", authed(json(deep)), from(SOURCE)), "");
    expect(body.error.details.errors[0].code).toBe("too_deep");
    expect(body.error.message).toContain("64");
  });
});

describe("the body is parsed once", () => {
  it("the route's validator uses the value the hygiene check parsed", async () => {
    const text = JSON.stringify({
      email: "grace@example.org",
      password: "long enough password",
      name: "Grace",
    });
    const parse = vi.spyOn(JSON, "parse");
    const response = await app.request("/auth/register", json(text), from(SOURCE));
    expect(response.status).toBe(201);
    expect(parse.mock.calls.filter(([source]) => source === text)).toHaveLength(1);
  });
});

describe("ids in paths", () => {
  it("a malformed id is 404 not_found before any service call", async () => {
    for (const path of [
      "/hypotheses/nope",
      "/hypotheses/exp_01jd0c6r5v8q2m7x4k9w3t1b6n", // another resource's prefix
      "/experiments/exp_01jd0c6r5v8q2m7x4k9w3t1b6n%00",
      "/admin/operators/op_1",
    ]) {
      const response = await app.request(path, authed(), from(SOURCE));
      expect(response.status, path).toBe(404);
      expect((await bodyOf(response)).error.code, path).toBe("not_found");
    }
    const revoke = await app.request("/auth/api-keys/key_1", authed({ method: "DELETE" }), from(SOURCE));
    expect(revoke.status).toBe(404);
  });
});
