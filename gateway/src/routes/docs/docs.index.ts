import { createRouter } from "../../lib/create-app.js";
import {
  openApiDocumentHandler,
  redocAssetHandler,
  redocHandler,
  swaggerUiAssetHandler,
  swaggerUiHandler,
} from "./docs.handlers.js";
import {
  getOpenApiDocument,
  getRedoc,
  getRedocAsset,
  getSwaggerUi,
  getSwaggerUiAsset,
} from "./docs.routes.js";

/** The documentation routes; `getDocument` returns the whole app's OpenAPI document. */
export function createDocsRouter(getDocument: () => { openapi: string }) {
  return createRouter()
    .openapi(getOpenApiDocument, openApiDocumentHandler(getDocument))
    .openapi(getSwaggerUi, swaggerUiHandler)
    .openapi(getSwaggerUiAsset, swaggerUiAssetHandler)
    .openapi(getRedoc, redocHandler)
    .openapi(getRedocAsset, redocAssetHandler);
}
