import type { ConnectRouter } from "@connectrpc/connect";

/** The result of one readiness probe of one dependency. */
export interface ReadinessCheck {
  name: string;
  ok: boolean;
  detail?: string;
}

export interface ReadinessReport {
  ready: boolean;
  checks: ReadinessCheck[];
}

/**
 * What a service's composition root (services/<svc>/src/service.ts) returns. The cluster
 * entry (main.ts) hosts one behind a Connect server; the standalone host runs them all in
 * one process behind router transports. Same handlers, use cases and migrations in both.
 */
export interface HostedService {
  /** Short name, e.g. "identity"; also its database schema. */
  readonly name: string;
  /** Registers the service's Connect handlers (grpc.health.v1 is added by the host). */
  routes(router: ConnectRouter): void;
  /**
   * Procedures callable without an internal principal token, e.g.
   * "petri.identity.v1.IdentityService/RegisterAccount". Health is always public.
   */
  readonly publicProcedures?: readonly string[];
  /** Brings its schema to the newest migration. */
  migrate(): Promise<void>;
  /** Starts background work: the outbox relay and event consumers. */
  start(): Promise<void>;
  /** Stops consumers (letting in-flight handlers finish), then the relay after its batch. */
  stop(): Promise<void>;
  /** Database reachable, bus connected, migrations at head, consumers running. */
  readiness(): Promise<ReadinessReport>;
}
