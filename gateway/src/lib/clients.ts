import { type Client, type Interceptor, type Transport, createClient } from "@connectrpc/connect";
import { SERVICE_NAMES, type ServiceName } from "@petri/contracts";
import { Health } from "@petri/contracts/health";
import { IdentityService } from "@petri/contracts/identity";

/** How the gateway reaches one service: a router transport (standalone) or HTTP (cluster). */
export type TransportFactory = (service: ServiceName, interceptors: Interceptor[]) => Transport;

export interface ServiceClients {
  identity: Client<typeof IdentityService>;
  health: Record<ServiceName, Client<typeof Health>>;
}

/** Every service behind the gateway. */
export const GATEWAY_SERVICES: readonly ServiceName[] = SERVICE_NAMES;

export function createServiceClients(
  transportFor: TransportFactory,
  interceptors: Interceptor[],
): ServiceClients {
  const transports = Object.fromEntries(
    GATEWAY_SERVICES.map((service) => [service, transportFor(service, interceptors)]),
  ) as Record<ServiceName, Transport>;
  return {
    identity: createClient(IdentityService, transports.identity),
    health: Object.fromEntries(
      GATEWAY_SERVICES.map((service) => [service, createClient(Health, transports[service])]),
    ) as Record<ServiceName, Client<typeof Health>>,
  };
}
