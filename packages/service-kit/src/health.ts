/**
 * The standard grpc.health.v1.Health service, answered from the service's real readiness
 * (database, bus, migrations, consumers), never a hard-coded SERVING. Kubernetes' HTTP
 * probes use /readyz on the same port (server.ts); this is for gRPC-aware callers
 * (grpc_health_probe, load balancers, grpcurl).
 */
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import {
  Health,
  HealthCheckResponseSchema,
  HealthCheckResponse_ServingStatus as ServingStatus,
  type HealthCheckResponse,
} from "@petri/contracts/health";
import { systemClock, type Clock } from "./clock.js";
import type { ReadinessReport } from "./hosted-service.js";
import type { Logger } from "./logger.js";

export { HealthCheckResponse_ServingStatus as ServingStatus } from "@petri/contracts/health";

export interface HealthRoutesOptions {
  /** Drives Watch's polling; tests pass a fake clock. */
  clock?: Clock;
  /** How often Watch re-reads readiness. Default 2 s. */
  pollIntervalMs?: number;
  logger?: Logger;
}

function response(status: ServingStatus): HealthCheckResponse {
  return create(HealthCheckResponseSchema, { status });
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

/**
 * Registers grpc.health.v1.Health on `router`.
 * @param serviceNames fully-qualified service names this server answers for (e.g.
 *   "petri.identity.v1.IdentityService"); "" (the whole server) is always known. All share
 *   one readiness, because they share one process and its dependencies.
 */
export function healthRoutes(
  router: ConnectRouter,
  readiness: () => Promise<ReadinessReport>,
  serviceNames: readonly string[],
  options: HealthRoutesOptions = {},
): void {
  const clock = options.clock ?? systemClock;
  const pollIntervalMs = options.pollIntervalMs ?? 2_000;
  const known = new Set(["", ...serviceNames]);

  async function currentStatus(): Promise<ServingStatus> {
    try {
      return (await readiness()).ready ? ServingStatus.SERVING : ServingStatus.NOT_SERVING;
    } catch (error) {
      // A readiness check that throws means "not ready", not a failed health call.
      options.logger?.warn({ err: error }, "readiness check failed");
      return ServingStatus.NOT_SERVING;
    }
  }

  router.service(Health, {
    async check(req) {
      if (!known.has(req.service)) throw new ConnectError(`unknown service "${req.service}"`, Code.NotFound);
      return response(await currentStatus());
    },

    async *watch(req, ctx) {
      if (!known.has(req.service)) {
        // The protocol says: report SERVICE_UNKNOWN and keep the call open (a service may
        // appear later). Ours never does, so the call just waits for the caller or shutdown.
        yield response(ServingStatus.SERVICE_UNKNOWN);
        await untilAborted(ctx.signal);
        return;
      }
      let last = await currentStatus();
      yield response(last);
      for (;;) {
        await clock.sleep(pollIntervalMs, ctx.signal);
        // Ends on the caller's cancel or the server's shutdownSignal; clients then re-watch.
        if (ctx.signal.aborted) return;
        const status = await currentStatus();
        if (status !== last) {
          last = status;
          yield response(status);
        }
      }
    },

    async list() {
      const status = await currentStatus();
      return { statuses: Object.fromEntries([...known].map((name) => [name, response(status)])) };
    },
  });
}
