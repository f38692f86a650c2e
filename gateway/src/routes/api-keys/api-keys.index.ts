import { createRouter } from "../../lib/create-app.js";
import { createApiKeyHandler, listApiKeysHandler, revokeApiKeyHandler } from "./api-keys.handlers.js";
import { createApiKey, listApiKeys, revokeApiKey } from "./api-keys.routes.js";

export const apiKeysRouter = createRouter()
  .openapi(createApiKey, createApiKeyHandler)
  .openapi(listApiKeys, listApiKeysHandler)
  .openapi(revokeApiKey, revokeApiKeyHandler);
