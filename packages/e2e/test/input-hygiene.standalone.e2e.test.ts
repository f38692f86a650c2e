/**
 * Input hygiene through the whole stack in standalone mode: text PostgreSQL refuses (NUL, lone
 * surrogates), deep JSON and malformed path ids are answered with the error envelope (422 /
 * 404) instead of reaching SQL, and Node's own parser errors carry the envelope too.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerAndLogIn } from "./scenarios.js";
import { startStandaloneHost } from "./support/hosts.js";

let host: Awaited<ReturnType<typeof startStandaloneHost>>;
let apiKey: string;

beforeAll(async () => {
  host = await startStandaloneHost("petri-e2e-hygiene");
  ({ apiKey } = await registerAndLogIn(host.petri.url, "hygiene"));
});

afterAll(() => host?.stop());

async function send(method: string, path: string, body?: string, authed = true) {
  const response = await fetch(`${host.petri.url}${path}`, {
    method,
    headers: {
      ...(authed ? { "x-api-key": apiKey } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

function expectRefused(response: { status: number; body: any }, field: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(422);
  expect(response.body.error.code).toBe("validation_failed");
  expect(response.body.error.details.errors.map((e: { field: string }) => e.field)).toContain(field);
}

describe("input hygiene in standalone mode", () => {
  it("NUL in a query parameter, a body field of an authenticated route and the public auth routes is 422", async () => {
    expectRefused(await send("GET", "/hypotheses?search=a%00b"), "search");
    expectRefused(
      await send("POST", "/hypotheses", JSON.stringify({ title: "t\u0000", statement: "s" })),
      "title",
    );
    expectRefused(
      await send("POST", "/cloud-labs/engine/start", JSON.stringify({ query: "MIC\u0000" })),
      "query",
    );
    expectRefused(
      await send(
        "POST",
        "/auth/register",
        JSON.stringify({ email: "nul@example.org", password: "a long enough password", name: "N\u0000" }),
        false,
      ),
      "name",
    );
    expectRefused(
      await send(
        "POST",
        "/auth/token",
        JSON.stringify({ email: "nul\u0000@example.org", password: "a long enough password" }),
        false,
      ),
      "email",
    );
  });

  it("a lone surrogate is refused like NUL", async () => {
    expectRefused(await send("POST", "/hypotheses", '{"title":"\\ud800","statement":"s"}'), "title");
  });

  it("a body nested 5,000 levels is 422, and a malformed path id 404", async () => {
    const deep = `{"title":"t","statement":"s","tags":${"[".repeat(5_000)}${"]".repeat(5_000)}}`;
    const refused = await send("POST", "/hypotheses", deep);
    expect(refused.status).toBe(422);
    expect(refused.body.error.details.errors[0].code).toBe("too_deep");
    const missing = await send("GET", "/hypotheses/not-an-id");
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("not_found");
  });

  it("Node's parser errors (431, Content-Length with Transfer-Encoding) carry the envelope", async () => {
    const { port } = host.petri;
    const big = await exchange(
      port,
      `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
    );
    expect(big.status).toBe(431);
    expect(big.body.error.code).toBe("request_header_fields_too_large");
    const smuggled = await exchange(
      port,
      "POST /auth/token HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    );
    expect(smuggled.status).toBe(400);
    expect(Object.keys(smuggled.body.error).sort()).toEqual(["code", "details", "message"]);
  });
});

/** Raw bytes to the listening gateway; the reply until the server closes the connection. */
function exchange(port: number, request: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const split = raw.indexOf("\r\n\r\n");
      resolve({ status: Number(raw.split(" ", 2)[1]), body: JSON.parse(raw.slice(split + 4)) });
    });
    socket.write(request);
  });
}
