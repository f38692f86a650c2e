import { Code, ConnectError, createRouterTransport } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Health, HealthCheckResponse_ServingStatus } from "@petri/contracts/health";
import { AccountSchema, IdentityService, Role, Tier } from "@petri/contracts/identity";
import {
  ConflictError,
  ValidationError,
  createLogger,
  errorInterceptor,
  systemClock,
} from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { createGateway } from "./app.js";
import { createServiceClients } from "./lib/clients.js";

// Responses are JSON we assert on field by field.
const body = async (response: Response): Promise<any> => response.json();

const logger = createLogger({ service: "gateway-test", level: "silent" });

function gatewayWith(options: { notReady?: string[]; register?: (email: string) => Promise<void> }) {
  const clients = createServiceClients(
    (service) =>
      createRouterTransport(
        (router) => {
          router.service(Health, {
            check: async () => ({
              status: options.notReady?.includes(service)
                ? HealthCheckResponse_ServingStatus.NOT_SERVING
                : HealthCheckResponse_ServingStatus.SERVING,
            }),
          });
          router.service(IdentityService, {
            registerAccount: async (request) => {
              await options.register?.(request.email);
              return {
                account: create(AccountSchema, {
                  id: "usr_01",
                  email: request.email,
                  name: request.name,
                  organization: request.organization,
                  role: Role.REQUESTER,
                  tier: Tier.STANDARD,
                  createdAt: timestampFromDate(new Date("2026-01-01T00:00:00Z")),
                }),
              };
            },
          });
        },
        { router: { interceptors: [errorInterceptor(logger)] } },
      ),
    [],
  );
  return createGateway({ clients, logger, clock: systemClock, maxBodyBytes: 4096 });
}

const post = (body: unknown, headers: Record<string, string> = { "content-type": "application/json" }) => ({
  method: "POST",
  headers,
  body: typeof body === "string" ? body : JSON.stringify(body),
});
const registration = { email: "ada@example.org", password: "long enough password", name: "Ada" };

describe("gateway", () => {
  it("GET /health is 200 when every service is serving and 503 naming the one that is not", async () => {
    const ok = await gatewayWith({}).request("/health");
    expect(ok.status).toBe(200);
    expect((await body(ok)).status).toBe("ok");
    const degraded = await gatewayWith({ notReady: ["engine"] }).request("/health");
    expect(degraded.status).toBe(503);
    const health = await body(degraded);
    expect(health.status).toBe("degraded");
    expect(health.services.engine.status).toBe("not_ready");
    expect(health.services.identity.status).toBe("ready");
  });

  it("maps a service's domain error to the public status and body", async () => {
    const conflict = await gatewayWith({
      register: async () => {
        throw new ConflictError("taken", "email_taken", { field: "email" });
      },
    }).request("/auth/register", post(registration));
    expect(conflict.status).toBe(409);
    expect(await body(conflict)).toEqual({
      error: { code: "email_taken", message: "taken", details: { field: "email" } },
    });

    const invalid = await gatewayWith({
      register: async () => {
        throw new ValidationError("bad", [{ field: "email", code: "invalid_value", message: "no" }]);
      },
    }).request("/auth/register", post(registration));
    expect(invalid.status).toBe(422);
    expect((await body(invalid)).error.details.errors).toEqual([
      { field: "email", code: "invalid_value", message: "no" },
    ]);
  });

  it("never turns an internal failure into a stack trace", async () => {
    const response = await gatewayWith({
      register: async () => {
        throw new Error("relation accounts does not exist at /srv/x.ts:12");
      },
    }).request("/auth/register", post(registration));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain("relation");
    expect(JSON.parse(text).error.details.request_id).toEqual(expect.any(String));
  });

  it("keeps Unavailable a 503 instead of flattening it to 500", async () => {
    const response = await gatewayWith({
      register: async () => {
        throw new ConnectError("db down", Code.Unavailable);
      },
    }).request("/auth/register", post(registration));
    expect(response.status).toBe(503);
    expect((await body(response)).error.code).toBe("unavailable");
  });

  it("rejects schema violations, malformed JSON, oversized bodies and unknown routes in one shape", async () => {
    const app = gatewayWith({});
    const missing = await app.request("/auth/register", post({ email: "a@b.co" }));
    expect(missing.status).toBe(422);
    const fields = (await body(missing)).error.details.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(["password", "name"]));

    const malformed = await app.request("/auth/register", post("{not json"));
    expect(malformed.status).toBe(422);
    expect((await body(malformed)).error.code).toBe("validation_failed");

    const tooBig = await app.request("/auth/register", post({ ...registration, name: "x".repeat(5000) }));
    expect(tooBig.status).toBe(413);
    expect((await body(tooBig)).error.code).toBe("payload_too_large");

    const unknown = await app.request("/nope");
    expect(unknown.status).toBe(404);
    expect(await body(unknown)).toMatchObject({ error: { code: "not_found", details: {} } });
  });

  it("created accounts come back as the public JSON, never with credentials", async () => {
    const response = await gatewayWith({}).request("/auth/register", post(registration));
    expect(response.status).toBe(201);
    const created = await body(response);
    expect(created.account).toEqual({
      id: "usr_01",
      email: "ada@example.org",
      name: "Ada",
      organization: "",
      role: "requester",
      tier: "standard",
      created_at: "2026-01-01T00:00:00.000Z",
    });
  });

  it("serves an OpenAPI 3.1 document", async () => {
    const response = await gatewayWith({}).request("/openapi.json");
    const doc = await body(response);
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/health", "/auth/register"]));
  });
});
