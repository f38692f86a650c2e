/**
 * The OpenAPI document as committed in gateway/openapi.json (`npm run -w @petri/gateway
 * openapi` writes it; a test fails when the file is stale). The routes do not depend on the
 * deps, so an inert gateway describes the real one.
 */
import { createRouterTransport } from "@connectrpc/connect";
import { createLogger, systemClock } from "@petri/service-kit";
import { createGateway, openApiDocument } from "./app.js";
import { createServiceClients } from "./lib/clients.js";

export function buildOpenApiDocument() {
  const clients = createServiceClients(() => createRouterTransport(() => {}), []);
  const app = createGateway({
    clients,
    logger: createLogger({ service: "openapi", level: "silent" }),
    clock: systemClock,
  });
  return openApiDocument(app);
}

/** The file's exact text. */
export function renderOpenApiDocument(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
