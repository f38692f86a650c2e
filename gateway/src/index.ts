export { createGateway, openApiDocument, API_VERSION } from "./app.js";
export {
  createServiceClients,
  GATEWAY_SERVICES,
  type ServiceClients,
  type TransportFactory,
} from "./lib/clients.js";
export type { GatewayAppDeps, GatewayDeps } from "./lib/create-app.js";
export { corsOriginsSchema, parseCorsOrigins } from "./lib/cors.js";
export { trustProxySchema } from "./lib/source-address.js";
export { PUBLIC_OPERATIONS, RATE_LIMIT_EXEMPT_OPERATIONS } from "./lib/access.js";
