/**
 * The readiness of every service behind the gateway, for GET /health: asked of each service
 * (grpc.health.v1 over Connect) at most once per `maxAgeMs` (1 s), whatever the request rate.
 * Requests within that interval get the last report, which says when it was taken
 * (checked_at); requests arriving while a probe runs wait for that probe (single flight), so
 * a burst of health checks costs one round of seven calls. A service that does not answer
 * within PROBE_TIMEOUT_MS is "unreachable".
 */
import { HealthCheckResponse_ServingStatus } from "@petri/contracts/health";
import type { ServiceName } from "@petri/contracts";
import type { Clock } from "@petri/service-kit";
import { GATEWAY_SERVICES, type ServiceClients } from "./clients.js";

export const DEFAULT_HEALTH_MAX_AGE_MS = 1_000;
const PROBE_TIMEOUT_MS = 2_000;

export type ServiceStatus = "ready" | "not_ready" | "unreachable";

export interface HealthReport {
  allReady: boolean;
  services: Record<string, { status: ServiceStatus }>;
  /** When the probe started (epoch ms). */
  checkedAt: number;
}

export class ServiceHealth {
  private last: HealthReport | undefined;
  private inflight: Promise<HealthReport> | undefined;

  constructor(
    private readonly options: {
      health: ServiceClients["health"];
      clock: Clock;
      maxAgeMs?: number;
      services?: readonly ServiceName[];
    },
  ) {}

  /** The last report if younger than maxAgeMs, else the one a (shared) probe returns. */
  current(): Promise<HealthReport> {
    const now = this.options.clock.now().getTime();
    const last = this.last;
    if (last && now - last.checkedAt < (this.options.maxAgeMs ?? DEFAULT_HEALTH_MAX_AGE_MS))
      return Promise.resolve(last);
    this.inflight ??= this.probe(now).finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async probe(checkedAt: number): Promise<HealthReport> {
    const { health } = this.options;
    const results = await Promise.all(
      (this.options.services ?? GATEWAY_SERVICES).map(async (service) => {
        let status: ServiceStatus;
        try {
          const response = await health[service].check({ service: "" }, { timeoutMs: PROBE_TIMEOUT_MS });
          status = response.status === HealthCheckResponse_ServingStatus.SERVING ? "ready" : "not_ready";
        } catch {
          status = "unreachable";
        }
        return [service, { status }] as const;
      }),
    );
    const report: HealthReport = {
      allReady: results.every(([, { status }]) => status === "ready"),
      services: Object.fromEntries(results),
      checkedAt,
    };
    this.last = report;
    return report;
  }
}
