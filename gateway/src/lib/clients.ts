import {
  type CallOptions,
  type Client,
  type Interceptor,
  type Transport,
  createClient,
  createContextValues,
} from "@connectrpc/connect";
import { SERVICE_NAMES, type ServiceName } from "@petri/contracts";
import { CloudLabsService } from "@petri/contracts/cloudlabs";
import { DeadLetterService } from "@petri/contracts/common";
import { EngineService } from "@petri/contracts/engine";
import { ExperimentsService } from "@petri/contracts/experiments";
import { Health } from "@petri/contracts/health";
import { HypothesesService } from "@petri/contracts/hypotheses";
import { IdentityService } from "@petri/contracts/identity";
import { MarketplaceService } from "@petri/contracts/marketplace";
import { NotificationsService } from "@petri/contracts/notifications";
import { GATEWAY_SYSTEM_PRINCIPAL, kPrincipal } from "@petri/service-kit";

/** How the gateway reaches one service: a router transport (standalone) or HTTP (cluster). */
export type TransportFactory = (service: ServiceName, interceptors: Interceptor[]) => Transport;

/**
 * The gateway's clients. `identity` exposes every IdentityService RPC (RegisterAccount,
 * IssueToken, GetAccount, CreateApiKey, ListApiKeys, RevokeApiKey, UpdateAccountAccess,
 * AuthenticateApiKey, ListSigningKeys, RotateSigningKey, AcquireQuota); `experiments` every
 * ExperimentsService RPC (one call per experiments, validation, templates, review, claim,
 * results, dispute or file request); `marketplace` every MarketplaceService RPC (operators,
 * the job feed, lab matching, payments, the ledger check); `notifications` every
 * NotificationsService RPC (webhook secrets, settings, the delivery log, replay, resume, the
 * webhook test, the sent-mail log); `hypotheses` every HypothesesService RPC (the caller's
 * hypothesis library); `engine` every EngineService RPC (engine runs, synchronous generation);
 * `cloudlabs` every CloudLabsService RPC (providers, interpret/translate/validate, submissions).
 */
export interface ServiceClients {
  identity: Client<typeof IdentityService>;
  experiments: Client<typeof ExperimentsService>;
  marketplace: Client<typeof MarketplaceService>;
  notifications: Client<typeof NotificationsService>;
  hypotheses: Client<typeof HypothesesService>;
  engine: Client<typeof EngineService>;
  cloudlabs: Client<typeof CloudLabsService>;
  health: Record<ServiceName, Client<typeof Health>>;
  /** petri.common.v1.DeadLetterService of every service (GET/POST /admin/dead-letters). */
  deadLetters: Record<ServiceName, Client<typeof DeadLetterService>>;
}

/** Every service behind the gateway. */
export const GATEWAY_SERVICES: readonly ServiceName[] = SERVICE_NAMES;

/** Deadline of the gateway's own calls (keys, API key lookups, quota draws): they gate every request. */
export const SYSTEM_CALL_TIMEOUT_MS = 2_000;
/** Deadline of a call made for a user's request. */
export const USER_CALL_TIMEOUT_MS = 10_000;
/**
 * Deadline of a call that moves a results body or a file (up to 40 MiB): decoding, hashing
 * and storing it takes longer than an ordinary request.
 */
export const BULK_CALL_TIMEOUT_MS = 60_000;

/**
 * Options for a call the gateway makes for itself (GATEWAY_SYSTEM_PRINCIPAL), whatever
 * principal the current request context holds: the client interceptor prefers the call's
 * contextValues over the request context.
 */
export function asGateway(timeoutMs = SYSTEM_CALL_TIMEOUT_MS): CallOptions {
  return { timeoutMs, contextValues: createContextValues().set(kPrincipal, GATEWAY_SYSTEM_PRINCIPAL) };
}

/**
 * Options for a call on behalf of the authenticated caller: the principal comes from the
 * request context the authentication middleware set (runWithRequestContext).
 */
export function asCaller(timeoutMs = USER_CALL_TIMEOUT_MS): CallOptions {
  return { timeoutMs };
}

export function createServiceClients(
  transportFor: TransportFactory,
  interceptors: Interceptor[],
): ServiceClients {
  const transports = Object.fromEntries(
    GATEWAY_SERVICES.map((service) => [service, transportFor(service, interceptors)]),
  ) as Record<ServiceName, Transport>;
  return {
    identity: createClient(IdentityService, transports.identity),
    experiments: createClient(ExperimentsService, transports.experiments),
    marketplace: createClient(MarketplaceService, transports.marketplace),
    notifications: createClient(NotificationsService, transports.notifications),
    hypotheses: createClient(HypothesesService, transports.hypotheses),
    engine: createClient(EngineService, transports.engine),
    cloudlabs: createClient(CloudLabsService, transports.cloudlabs),
    health: Object.fromEntries(
      GATEWAY_SERVICES.map((service) => [service, createClient(Health, transports[service])]),
    ) as Record<ServiceName, Client<typeof Health>>,
    deadLetters: Object.fromEntries(
      GATEWAY_SERVICES.map((service) => [service, createClient(DeadLetterService, transports[service])]),
    ) as Record<ServiceName, Client<typeof DeadLetterService>>,
  };
}
