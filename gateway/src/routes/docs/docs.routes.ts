import { createRoute, z } from "@hono/zod-openapi";
import { publicAccess } from "../../lib/access.js";
import { errorResponses, jsonResponse, responseHeaders } from "../../lib/openapi.js";

const html = (description: string) => ({
  description,
  headers: responseHeaders(),
  content: { "text/html": { schema: z.string() } },
});

const asset = (description: string) => ({
  description,
  headers: responseHeaders(),
  content: { "text/css": { schema: z.string() }, "text/javascript": { schema: z.string() } },
});

export const SWAGGER_ASSETS = ["swagger-ui.css", "swagger-ui-bundle.js", "init.js"] as const;
export const REDOC_ASSETS = ["redoc.standalone.js"] as const;

const fileParam = (files: readonly string[]) =>
  z.object({
    file: z.string().openapi({ param: { name: "file", in: "path" }, enum: [...files] }),
  });

export const getOpenApiDocument = createRoute({
  method: "get",
  path: "/openapi.json",
  operationId: "getOpenApiDocument",
  tags: ["Docs"],
  summary: "This document: the API's OpenAPI 3.1 description",
  ...publicAccess,
  responses: {
    200: jsonResponse("The OpenAPI 3.1 document", z.looseObject({ openapi: z.string() })),
    ...errorResponses({ authenticated: false }),
  },
});

export const getSwaggerUi = createRoute({
  method: "get",
  path: "/docs",
  operationId: "getSwaggerUi",
  tags: ["Docs"],
  summary: "Interactive documentation (Swagger UI, served from this gateway, no CDN)",
  ...publicAccess,
  responses: { 200: html("The Swagger UI page"), ...errorResponses({ authenticated: false }) },
});

export const getSwaggerUiAsset = createRoute({
  method: "get",
  path: "/docs/assets/{file}",
  operationId: "getSwaggerUiAsset",
  tags: ["Docs"],
  summary: "A file of the Swagger UI page",
  ...publicAccess,
  request: { params: fileParam(SWAGGER_ASSETS) },
  responses: {
    200: asset("The file"),
    ...errorResponses({ authenticated: false, notFound: "No such file (not_found)" }),
  },
});

export const getRedoc = createRoute({
  method: "get",
  path: "/redoc",
  operationId: "getRedoc",
  tags: ["Docs"],
  summary: "Reference documentation (ReDoc, served from this gateway, no CDN)",
  ...publicAccess,
  responses: { 200: html("The ReDoc page"), ...errorResponses({ authenticated: false }) },
});

export const getRedocAsset = createRoute({
  method: "get",
  path: "/redoc/assets/{file}",
  operationId: "getRedocAsset",
  tags: ["Docs"],
  summary: "A file of the ReDoc page",
  ...publicAccess,
  request: { params: fileParam(REDOC_ASSETS) },
  responses: {
    200: asset("The file"),
    ...errorResponses({ authenticated: false, notFound: "No such file (not_found)" }),
  },
});
