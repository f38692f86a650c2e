import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { GatewayEnv } from "../../lib/create-app.js";
import { ApiError } from "../../lib/problem.js";
import * as routes from "./docs.routes.js";

const require = createRequire(import.meta.url);

/**
 * The documentation pages load only files this gateway serves (swagger-ui-dist and ReDoc's
 * standalone bundle from node_modules): no CDN. Their Content-Security-Policy also keeps
 * the browser from fetching anything elsewhere (ReDoc's sidebar logo from cdn.redoc.ly,
 * Swagger UI's validator badge). 'unsafe-eval' is allowed because both bundles generate
 * code at run time (ReDoc's schema validator); the pages render no user input.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

// Relative URLs, so the pages also work behind a path prefix.
const SWAGGER_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Petri API</title>
    <link rel="stylesheet" href="docs/assets/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="docs/assets/swagger-ui-bundle.js"></script>
    <script src="docs/assets/init.js"></script>
  </body>
</html>
`;

const SWAGGER_INIT = `window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null,
  });
});
`;

const REDOC_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Petri API reference</title>
  </head>
  <body>
    <redoc spec-url="openapi.json"></redoc>
    <script src="redoc/assets/redoc.standalone.js"></script>
  </body>
</html>
`;

const files = new Map<string, Buffer>();

function packageFile(key: string, resolve: () => string): Buffer {
  let file = files.get(key);
  if (!file) {
    file = readFileSync(resolve());
    files.set(key, file);
  }
  return file;
}

const swaggerDist = () => dirname(require.resolve("swagger-ui-dist/package.json"));

function contentType(file: string): string {
  return file.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8";
}

function page(c: Context<GatewayEnv>, body: string) {
  c.header("Content-Security-Policy", DOCS_CONTENT_SECURITY_POLICY);
  c.header("Cache-Control", "no-cache");
  return c.html(body, 200);
}

function assetResponse(c: Context<GatewayEnv>, file: string, content: Buffer | string) {
  c.header("Content-Type", contentType(file));
  // The files change only with the pinned package versions.
  c.header("Cache-Control", "public, max-age=3600");
  return c.body(typeof content === "string" ? content : new Uint8Array(content), 200);
}

function noSuchFile(): never {
  throw new ApiError(404, "not_found", "no such documentation file");
}

export function openApiDocumentHandler(
  getDocument: () => { openapi: string },
): RouteHandler<typeof routes.getOpenApiDocument, GatewayEnv> {
  return (c) => {
    c.header("Cache-Control", "no-cache");
    return c.json(getDocument(), 200);
  };
}

export const swaggerUiHandler: RouteHandler<typeof routes.getSwaggerUi, GatewayEnv> = (c) =>
  page(c, SWAGGER_PAGE);

export const redocHandler: RouteHandler<typeof routes.getRedoc, GatewayEnv> = (c) => page(c, REDOC_PAGE);

export const swaggerUiAssetHandler: RouteHandler<typeof routes.getSwaggerUiAsset, GatewayEnv> = (c) => {
  const { file } = c.req.valid("param");
  if (!(routes.SWAGGER_ASSETS as readonly string[]).includes(file)) return noSuchFile();
  if (file === "init.js") return assetResponse(c, file, SWAGGER_INIT);
  return assetResponse(
    c,
    file,
    packageFile(`swagger/${file}`, () => join(swaggerDist(), file)),
  );
};

export const redocAssetHandler: RouteHandler<typeof routes.getRedocAsset, GatewayEnv> = (c) => {
  const { file } = c.req.valid("param");
  if (!(routes.REDOC_ASSETS as readonly string[]).includes(file)) return noSuchFile();
  return assetResponse(
    c,
    file,
    packageFile("redoc/redoc.standalone.js", () => require.resolve("redoc/bundles/redoc.standalone.js")),
  );
};
