export { createGateway, API_VERSION } from "./app.js";
export {
  createServiceClients,
  GATEWAY_SERVICES,
  type ServiceClients,
  type TransportFactory,
} from "./lib/clients.js";
export type { GatewayDeps } from "./lib/create-app.js";
