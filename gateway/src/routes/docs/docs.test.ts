import { readFileSync } from "node:fs";
import { FakeClock } from "@petri/testkit";
import { beforeAll, describe, expect, it } from "vitest";
import { FakeIdentity, bodyOf, from, gatewayFor } from "../../../test/support/fake-identity.js";
import { PUBLIC_OPERATIONS, RATE_LIMIT_EXEMPT_OPERATIONS, operationKey } from "../../lib/access.js";
import { renderOpenApiDocument } from "../../openapi-document.js";

const SOURCE = "198.51.100.90";
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];
const EXTERNAL = /https?:\/\/|\/\/[a-z0-9.-]+\.[a-z]{2,}|cdn|jsdelivr|unpkg|googleapis|redoc\.ly/i;

let app: Awaited<ReturnType<typeof gatewayFor>>;
let document: any;

beforeAll(async () => {
  const identity = await FakeIdentity.create(new FakeClock());
  // A generous anonymous quota is not needed: each test uses its own address.
  app = await gatewayFor(identity);
  document = await bodyOf(await app.request("/openapi.json", {}, from(SOURCE)));
});

function operations(): Array<{ key: string; operation: any }> {
  return Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ key: operationKey(method, path), operation })),
  );
}

describe("documentation pages", () => {
  it.each([
    ["/docs", ["docs/assets/swagger-ui.css", "docs/assets/swagger-ui-bundle.js", "docs/assets/init.js"]],
    ["/redoc", ["redoc/assets/redoc.standalone.js"]],
  ])("%s loads only local files and forbids the browser any other origin", async (page, assets) => {
    const response = await app.request(page, {}, from("198.51.100.91"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("img-src 'self' data:");
    const html = await response.text();
    expect(html).not.toMatch(EXTERNAL);
    const referenced = [...html.matchAll(/(?:src|href|spec-url)="([^"]+)"/g)].map((m) => m[1]);
    expect(referenced.filter((url) => url !== "openapi.json").sort()).toEqual([...assets].sort());
    for (const asset of assets) {
      const file = await app.request(`/${asset}`, {}, from("198.51.100.92"));
      expect(file.status, asset).toBe(200);
      expect(file.headers.get("content-type")).toMatch(
        asset.endsWith(".css") ? /^text\/css/ : /^text\/javascript/,
      );
      expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(20);
    }
    const init = await (await app.request("/docs/assets/init.js", {}, from("198.51.100.93"))).text();
    expect(init).not.toMatch(EXTERNAL);
    expect(init).toContain("validatorUrl: null");
  });

  it("serves no other file from the packages", async () => {
    for (const path of [
      "/docs/assets/index.html",
      "/docs/assets/swagger-initializer.js",
      "/docs/assets/..%2Fpackage.json",
      "/redoc/assets/redoc.lib.js",
    ]) {
      const response = await app.request(path, {}, from("198.51.100.94"));
      expect(response.status, path).toBe(404);
    }
  });
});

describe("OpenAPI document", () => {
  it("is OpenAPI 3.1 with info, servers and both security schemes", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(document.info).toMatchObject({ title: "Petri API", version: expect.any(String) });
    expect(document.servers.length).toBeGreaterThan(0);
    expect(document.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: "http", scheme: "bearer", bearerFormat: "JWT" }),
      apiKeyAuth: expect.objectContaining({ type: "apiKey", in: "header", name: "X-API-Key" }),
    });
  });

  it("gives every operation an operationId, tags, security, roles and its error responses", () => {
    const ids = new Set<string>();
    for (const { key, operation } of operations()) {
      const where = `${key}: `;
      expect(operation.operationId, where).toEqual(expect.any(String));
      expect(ids.has(operation.operationId), where + "duplicate operationId").toBe(false);
      ids.add(operation.operationId);
      expect(operation.tags?.length, where + "tags").toBeGreaterThan(0);
      expect(Array.isArray(operation.security), where + "security").toBe(true);
      expect(operation["x-roles"]?.length, where + "x-roles").toBeGreaterThan(0);
      const statuses = Object.keys(operation.responses);
      if (operation.security.length > 0) {
        expect(statuses, where).toEqual(expect.arrayContaining(["400", "401", "403"]));
        expect(operation.security).toEqual([{ bearerAuth: [] }, { apiKeyAuth: [] }]);
      }
      if (operation.requestBody) {
        expect(statuses, where).toEqual(expect.arrayContaining(["413", "415", "422"]));
        expect(operation.requestBody.content["application/json"], where).toBeDefined();
      }
      if (!(RATE_LIMIT_EXEMPT_OPERATIONS as readonly string[]).includes(key)) {
        expect(statuses, where).toContain("429");
        expect(operation.responses["429"].headers["Retry-After"], where).toBeDefined();
        for (const response of Object.values(operation.responses) as any[]) {
          expect(response.headers?.["X-RateLimit-Remaining"], where + "rate-limit headers").toBeDefined();
        }
      }
      expect(statuses, where).toContain("500");
      for (const [status, response] of Object.entries(operation.responses) as Array<[string, any]>) {
        if (Number(status) >= 400 && !(key === "GET /health" || key === "GET /readyz")) {
          expect(response.content["application/json"].schema, `${where}${status}`).toEqual({
            $ref: "#/components/schemas/Error",
          });
        }
      }
    }
  });

  it("marks exactly the documented public operations as security: []", () => {
    const publicOps = operations()
      .filter(({ operation }) => operation.security.length === 0)
      .map(({ key }) => key)
      .sort();
    expect(publicOps).toEqual([...PUBLIC_OPERATIONS].sort());
  });

  it("documents every route the app serves, and serves every documented operation", () => {
    const served = new Set(
      app.routes
        .filter((route) => route.method !== "ALL")
        .map((route) => operationKey(route.method, route.path)),
    );
    const documented = new Set(operations().map(({ key }) => key));
    expect([...served].sort()).toEqual([...documented].sort());
  });

  it("is committed fresh in gateway/openapi.json (run: npm run -w @petri/gateway openapi)", () => {
    const committed = readFileSync(new URL("../../../openapi.json", import.meta.url), "utf8");
    expect(committed).toBe(renderOpenApiDocument());
    expect(JSON.parse(committed)).toEqual(document);
  });
});
