/**
 * An in-memory ExperimentsService for gateway tests: just enough behaviour (ownership,
 * statuses, idempotency keys, refunds) to exercise the gateway's mapping of every RPC, with
 * money in integer cents as the real service sends it. Calls cross a Connect router
 * transport with the real internal-principal interceptors, so each RPC sees (and the fake
 * records) the principal and the exact request the gateway sent.
 */
import { EXPERIMENT_STATUS_NAME_BY_VALUE } from "@petri/contracts/vocabulary";
import { clone, create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type HandlerContext, type Transport, createRouterTransport } from "@connectrpc/connect";
import {
  CancellationSchema,
  type CreateExperimentResponse,
  CreateExperimentResponseSchema,
  EstimateSchema,
  type Experiment,
  ExperimentSchema,
  ExperimentStatus,
  ExperimentsService,
  RequestIssueSchema,
} from "@petri/contracts/experiments";
import { Health, HealthCheckResponse_ServingStatus } from "@petri/contracts/health";
import {
  type Clock,
  ConflictError,
  DomainError,
  InvalidStateError,
  type InternalTokenVerifier,
  NotFoundError,
  type Principal,
  SafetyRejectedError,
  ValidationError,
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
export const ESTIMATE_CENTS = {
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

const EDITABLE = ["draft", "pending_review", "open"];
const CANCELLABLE = ["draft", "pending_review", "open", "claimed", "in_progress"];

const fail = (error: DomainError) => domainErrorToConnectError(error);

/** The service's answer to a key reused with another request: 422 idempotency_key_reused. */
class IdempotencyKeyReused extends DomainError {
  readonly kind = "validation_failed" as const;
  override get code(): string {
    return "idempotency_key_reused";
  }
}

export class FakeExperiments {
  readonly experiments = new Map<string, Experiment>();
  /** Every RPC with its request message and the principal it arrived with. */
  readonly calls: Array<{ method: string; request: unknown; principal: Principal | undefined }> = [];
  /** Make an RPC fail with this error (after recording the call). */
  readonly failures = new Map<string, () => Error>();
  /** The marketplace loop (claims, results, files, disputes): see fake-experiments-loop.ts. */
  readonly loop = new ResultsLoopState();
  private readonly idempotency = new Map<string, { fingerprint: string; answer: CreateExperimentResponse }>();
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

  private cancel(experiment: Experiment, reason: string) {
    this.requireStatus(experiment, CANCELLABLE);
    const hold = experiment.estimate?.costTypicalCents ?? 0n;
    const status = EXPERIMENT_STATUS_NAME_BY_VALUE.get(experiment.status);
    const [refund, compensation, refundStatus] =
      status === "claimed"
        ? [hold - hold / 5n, hold / 5n, "partial"]
        : status === "in_progress"
          ? [0n, hold, "none"]
          : status === "draft"
            ? [0n, 0n, "none"]
            : [hold, 0n, "full"];
    experiment.cancellation = create(CancellationSchema, {
      reason,
      refundAmountCents: refund,
      operatorCompensationCents: compensation,
      refundStatus,
      cancelledAt: timestampFromDate(this.clock.now()),
    });
    return this.touch(experiment, ExperimentStatus.CANCELLED);
  }

  private page(experiments: Experiment[], limit: number, cursor: string, includeTotal: boolean) {
    const start = cursor ? Number(cursor.replace("c", "")) : 0;
    const size = limit || 20;
    const slice = experiments.slice(start, start + size);
    const hasMore = start + size < experiments.length;
    const hasTotal = includeTotal || (start === 0 && !hasMore);
    return {
      experiments: slice.map((e) => outgoing(e)),
      total: hasTotal ? BigInt(experiments.length) : 0n,
      hasTotal,
      nextCursor: hasMore ? `c${start + size}` : "",
      hasMore,
    };
  }

  transport(verifier: InternalTokenVerifier, clientSide: ReturnType<typeof clientInterceptors>) {
    return createRouterTransport(
      (router) => {
        router.service(Health, {
          check: async () => ({ status: HealthCheckResponse_ServingStatus.SERVING }),
        });
        router.service(ExperimentsService, {
          createExperiment: async (request, context) => {
            const principal = this.record("CreateExperiment", request, context);
            const slot = `${principal.accountId}|${request.idempotencyKey}`;
            const fingerprint = `${request.saveAsDraft}|${request.requestJson}`;
            const stored = request.idempotencyKey ? this.idempotency.get(slot) : undefined;
            if (stored) {
              if (stored.fingerprint !== fingerprint)
                throw fail(new IdempotencyKeyReused("key reused", { field: "idempotency_key" }));
              return { ...clone(CreateExperimentResponseSchema, stored.answer), replayed: true };
            }
            const body = JSON.parse(request.requestJson) as Record<string, any>;
            if (
              !request.saveAsDraft &&
              !["MIC_MBC_ASSAY", "QPCR_EXPRESSION", "CUSTOM"].includes(body.experiment_type)
            )
              throw fail(
                new ValidationError("the request is invalid", [
                  { field: "experiment_type", code: "invalid_experiment_type", message: "unknown type" },
                ]),
              );
            if (/^BSL-?[34]$/i.test(String(body.compliance?.bsl ?? "")))
              throw fail(new SafetyRejectedError("unsafe", { safety_flags: ["bsl_level_exceeded"] }));
            const design = body.protocol?.type === "protocol_design_requested";
            const status = request.saveAsDraft
              ? ExperimentStatus.DRAFT
              : design
                ? ExperimentStatus.PENDING_REVIEW
                : ExperimentStatus.OPEN;
            const experiment = this.add(principal.accountId, status, body);
            if (design) experiment.reviewReasons = ["protocol_design_requested"];
            const answer = create(CreateExperimentResponseSchema, {
              experiment: outgoing(experiment),
              warnings: [
                create(RequestIssueSchema, {
                  path: "replicates.technical",
                  code: "low_replicates",
                  message: "fewer than 3 technical replicates",
                  suggestion: "use 3",
                }),
                create(RequestIssueSchema, { path: "title", code: "short_title", message: "short" }),
              ],
            });
            if (request.idempotencyKey) this.idempotency.set(slot, { fingerprint, answer });
            return answer;
          },
          submitDraft: async (request, context) => {
            const principal = this.record("SubmitDraft", request, context);
            const experiment = this.visible(principal, request.experimentId);
            this.requireStatus(experiment, ["draft"]);
            experiment.submittedAt = timestampFromDate(this.clock.now());
            return { ...this.touch(experiment, ExperimentStatus.OPEN), warnings: [] };
          },
          getExperiment: async (request, context) => {
            const principal = this.record("GetExperiment", request, context);
            return { experiment: outgoing(this.visible(principal, request.experimentId)) };
          },
          listExperiments: async (request, context) => {
            const principal = this.record("ListExperiments", request, context);
            const mine = [...this.experiments.values()]
              .filter((e) => principal.role === "staff" || e.requesterAccountId === principal.accountId)
              .filter((e) => request.status === ExperimentStatus.UNSPECIFIED || e.status === request.status)
              .reverse();
            return this.page(mine, request.limit, request.cursor, request.includeTotal);
          },
          updateExperiment: async (request, context) => {
            const principal = this.record("UpdateExperiment", request, context);
            const experiment = this.visible(principal, request.experimentId);
            this.requireStatus(experiment, EDITABLE);
            const patch = JSON.parse(request.patchJson) as Record<string, unknown>;
            experiment.requestJson = JSON.stringify({ ...JSON.parse(experiment.requestJson), ...patch });
            return this.touch(experiment);
          },
          cancelExperiment: async (request, context) => {
            const principal = this.record("CancelExperiment", request, context);
            return this.cancel(this.visible(principal, request.experimentId), request.reason);
          },
          acceptProtocolProposal: async (request, context) => {
            const principal = this.record("AcceptProtocolProposal", request, context);
            const experiment = this.visible(principal, request.experimentId);
            if (!experiment.protocolProposalJson)
              throw fail(
                new ConflictError("nothing to accept", "no_pending_proposal", { status: "pending_review" }),
              );
            return this.touch(experiment, ExperimentStatus.OPEN);
          },
          requestProtocolChanges: async (request, context) => {
            const principal = this.record("RequestProtocolChanges", request, context);
            return this.touch(this.visible(principal, request.experimentId));
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

/** A gateway in front of `identity` and `experiments`. */
export async function gatewayWithExperiments(
  identity: FakeIdentity,
  experiments: FakeExperiments,
  deps: Partial<GatewayDeps> = {},
) {
  return gatewayWithServices(identity, { experiments }, deps);
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
    engine?: FakeService;
    hypotheses?: FakeService;
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
    if (service === "engine" && fakes.engine) return fakes.engine.transport(verifier, clientSide);
    if (service === "hypotheses" && fakes.hypotheses) return fakes.hypotheses.transport(verifier, clientSide);
    return identity.transport(verifier, clientSide, service);
  }, clientInterceptors(signer));
  return createGateway({ clients, logger: silentLogger, clock: identity.clock, maxBodyBytes: 4096, ...deps });
}
