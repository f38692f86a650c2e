/**
 * An in-memory ExperimentsService for the gateway tests that need what the real service
 * cannot be made to do (D347: a service's size and rate-limit errors on demand, how a
 * submission streams): reading an experiment and the lab's loop (fake-experiments-loop.ts),
 * with money in integer cents as the real service sends it. The other experiments routes are
 * tested on the real services (test/routes/*.int.test.ts, D354). Calls cross a Connect
 * router transport with the real internal-principal interceptors, so each RPC sees (and the
 * fake records) the principal and the exact request the gateway sent.
 */
import { EXPERIMENT_STATUS_NAME_BY_VALUE } from "@petri/contracts/vocabulary";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type HandlerContext, type Transport, createRouterTransport } from "@connectrpc/connect";
import {
  EstimateSchema,
  type Experiment,
  ExperimentSchema,
  ExperimentStatus,
  ExperimentsService,
} from "@petri/contracts/experiments";
import { Health, HealthCheckResponse_ServingStatus } from "@petri/contracts/health";
import {
  type Clock,
  type DomainError,
  InvalidStateError,
  type InternalTokenVerifier,
  NotFoundError,
  type Principal,
  clientInterceptors,
  createLogger,
  domainErrorToConnectError,
  kPrincipal,
  serverInterceptors,
} from "@petri/service-kit";
import { createGateway } from "../../src/app.js";
import { ResultsLoopState, outgoing, resultsLoopHandlers } from "./fake-experiments-loop.js";
import { createServiceClients } from "../../src/lib/clients.js";
import type { GatewayDeps } from "../../src/lib/create-app.js";
import { type FakeIdentity, internalKeys, silentLogger } from "./fake-identity.js";
import type { FakeNotifications } from "./fake-notifications.js";

/** The estimate of every request: $300.00 / $412.50 / $550.75, 14 days (10 expedited). */
const ESTIMATE_CENTS = {
  costLowCents: 30_000n,
  costTypicalCents: 41_250n,
  costHighCents: 55_075n,
  turnaroundStandardDays: 14,
  turnaroundExpeditedDays: 10,
  turnaroundDays: 14,
  operatorAvailability: "medium",
  breakdown: {
    materialsCents: 10_001n,
    laborCents: 15_000n,
    equipmentCents: 5_000n,
    platformFeeCents: 6_125n,
    privacyPremiumCents: 5_124n,
  },
};

const fail = (error: DomainError) => domainErrorToConnectError(error);

export class FakeExperiments {
  readonly experiments = new Map<string, Experiment>();
  /** Every RPC with its request message and the principal it arrived with. */
  readonly calls: Array<{ method: string; request: unknown; principal: Principal | undefined }> = [];
  /** Make an RPC fail with this error (after recording the call). */
  readonly failures = new Map<string, () => Error>();
  /** The marketplace loop (claims, results, files, disputes): see fake-experiments-loop.ts. */
  readonly loop = new ResultsLoopState();
  private sequence = 0;

  constructor(readonly clock: Clock) {}

  count(method: string): number {
    return this.calls.filter((call) => call.method === method).length;
  }

  last(method: string): any {
    return [...this.calls].reverse().find((call) => call.method === method)?.request;
  }

  /** Records the call (and throws an injected failure); the principal it arrived with. */
  record(method: string, request: unknown, context: HandlerContext): Principal {
    const principal = context.values.get(kPrincipal);
    this.calls.push({ method, request, principal });
    const failure = this.failures.get(method);
    if (failure) throw failure();
    if (!principal) throw new Error("no principal");
    return principal;
  }

  /** Stores an experiment owned by `accountId` in `status` (for tests that need one). */
  add(accountId: string, status: ExperimentStatus, request: Record<string, unknown> = { title: "x" }) {
    const now = timestampFromDate(this.clock.now());
    const experiment = create(ExperimentSchema, {
      id: `exp_${String(++this.sequence).padStart(26, "0")}`,
      requesterAccountId: accountId,
      status,
      experimentType: String(request.experiment_type ?? "MIC_MBC_ASSAY"),
      title: String(request.title ?? ""),
      requestJson: JSON.stringify(request),
      estimate: create(EstimateSchema, ESTIMATE_CENTS),
      holdAmountCents: status === ExperimentStatus.DRAFT ? 0n : ESTIMATE_CENTS.costTypicalCents,
      version: 1n,
      createdAt: now,
      updatedAt: now,
      ...(status !== ExperimentStatus.DRAFT && { submittedAt: now }),
    });
    this.experiments.set(experiment.id, experiment);
    return experiment;
  }

  /** The experiment as its requester (or staff) may see it; NotFound otherwise. */
  visible(principal: Principal, id: string): Experiment {
    const experiment = this.experiments.get(id);
    if (!experiment || (principal.role !== "staff" && experiment.requesterAccountId !== principal.accountId))
      throw fail(new NotFoundError("experiment", id));
    return experiment;
  }

  touch(experiment: Experiment, status?: ExperimentStatus) {
    if (status !== undefined) experiment.status = status;
    experiment.version += 1n;
    experiment.updatedAt = timestampFromDate(this.clock.now());
    return { experiment: outgoing(experiment) };
  }

  requireStatus(experiment: Experiment, allowed: string[]) {
    const status = EXPERIMENT_STATUS_NAME_BY_VALUE.get(experiment.status)!;
    if (!allowed.includes(status))
      throw fail(new InvalidStateError(`cannot do this while ${status}`, status, allowed));
  }

  transport(verifier: InternalTokenVerifier, clientSide: ReturnType<typeof clientInterceptors>) {
    return createRouterTransport(
      (router) => {
        router.service(Health, {
          check: async () => ({ status: HealthCheckResponse_ServingStatus.SERVING }),
        });
        router.service(ExperimentsService, {
          getExperiment: async (request, context) => {
            const principal = this.record("GetExperiment", request, context);
            return { experiment: outgoing(this.visible(principal, request.experimentId)) };
          },
          ...resultsLoopHandlers(this),
        });
      },
      {
        router: {
          interceptors: serverInterceptors({
            logger: createLogger({ service: "fake-experiments", level: "silent" }),
            verifier,
          }),
        },
        transport: { interceptors: clientSide },
      },
    );
  }
}

/** What gatewayWithServices needs of a fake service: a Connect transport to it. */
export interface FakeService {
  transport(verifier: InternalTokenVerifier, clientSide: ReturnType<typeof clientInterceptors>): Transport;
}

/**
 * A gateway in front of `identity` and whichever of the other fakes a test gives; every
 * other service answers Health only (and Unimplemented for its RPCs).
 */
export async function gatewayWithServices(
  identity: FakeIdentity,
  fakes: {
    experiments?: FakeExperiments;
    marketplace?: FakeService;
    notifications?: FakeNotifications;
  },
  deps: Partial<GatewayDeps> = {},
) {
  const { signer, verifier } = await internalKeys;
  const clients = createServiceClients((service, clientSide) => {
    if (service === "experiments" && fakes.experiments)
      return fakes.experiments.transport(verifier, clientSide);
    if (service === "marketplace" && fakes.marketplace)
      return fakes.marketplace.transport(verifier, clientSide);
    if (service === "notifications" && fakes.notifications)
      return fakes.notifications.transport(verifier, clientSide);
    return identity.transport(verifier, clientSide, service);
  }, clientInterceptors(signer));
  return createGateway({ clients, logger: silentLogger, clock: identity.clock, maxBodyBytes: 4096, ...deps });
}
