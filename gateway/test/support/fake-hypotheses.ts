/**
 * An in-memory HypothesesService for gateway tests: each account's library, the owner-only
 * reads (another account's hypothesis is NotFound), ARCHIVED hidden from the default listing,
 * PATCH in DRAFT only. Validation stays the real service's; the fake refuses only an empty
 * title, to show how a service validation error reaches the client. Calls cross a Connect
 * router transport with the real internal-principal interceptors, so each RPC sees (and the
 * fake records) the principal and the exact request the gateway sent.
 */
import { clone, create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type HandlerContext, createRouterTransport } from "@connectrpc/connect";
import { Health, HealthCheckResponse_ServingStatus } from "@petri/contracts/health";
import { type Hypothesis, HypothesesService, HypothesisSchema } from "@petri/contracts/hypotheses";
import {
  type Clock,
  type InternalTokenVerifier,
  InvalidStateError,
  NotFoundError,
  type Principal,
  ValidationError,
  clientInterceptors,
  createLogger,
  domainErrorToConnectError,
  kPrincipal,
  serverInterceptors,
} from "@petri/service-kit";
import { createGateway } from "../../src/app.js";
import { createServiceClients } from "../../src/lib/clients.js";
import { type FakeIdentity, internalKeys, silentLogger } from "./fake-identity.js";

export class FakeHypotheses {
  /** Hypotheses by id, in creation order. */
  readonly hypotheses = new Map<string, Hypothesis>();
  /** Every RPC with its request message and the principal it arrived with. */
  readonly calls: Array<{ method: string; request: unknown; principal: Principal | undefined }> = [];
  private sequence = 0;
  /** The service's view of the experiments (what its events consumer would have applied). */
  readonly experimentViews = new Map<
    string,
    { requesterAccountId: string; status: string; title: string; statement: string }
  >();

  constructor(readonly clock: Clock) {}

  last(method: string): any {
    return [...this.calls].reverse().find((call) => call.method === method)?.request;
  }

  count(method: string): number {
    return this.calls.filter((call) => call.method === method).length;
  }

  private record(method: string, request: unknown, context: HandlerContext): Principal {
    const principal = context.values.get(kPrincipal);
    this.calls.push({ method, request, principal });
    if (!principal) throw new Error("no principal");
    return principal;
  }

  private owned(principal: Principal, id: string): Hypothesis {
    const hypothesis = this.hypotheses.get(id);
    if (!hypothesis || hypothesis.ownerAccountId !== principal.accountId)
      throw domainErrorToConnectError(new NotFoundError("hypothesis", id));
    return hypothesis;
  }

  private touch(hypothesis: Hypothesis) {
    hypothesis.version += 1n;
    hypothesis.updatedAt = timestampFromDate(this.clock.now());
    return { hypothesis: clone(HypothesisSchema, hypothesis) };
  }

  transport(verifier: InternalTokenVerifier, clientSide: ReturnType<typeof clientInterceptors>) {
    return createRouterTransport(
      (router) => {
        router.service(Health, {
          check: async () => ({ status: HealthCheckResponse_ServingStatus.SERVING }),
        });
        router.service(HypothesesService, {
          createHypothesis: async (request, context) => {
            const principal = this.record("CreateHypothesis", request, context);
            if (request.title.trim() === "")
              throw domainErrorToConnectError(
                new ValidationError("the hypothesis is invalid", [
                  { field: "title", code: "missing_required", message: "title is required" },
                ]),
              );
            const now = timestampFromDate(this.clock.now());
            const { $typeName: _request, ...fields } = request;
            const hypothesis = create(HypothesisSchema, {
              ...fields,
              id: `hyp_${String(++this.sequence).padStart(26, "0")}`,
              ownerAccountId: principal.accountId,
              status: "DRAFT",
              experimentsCount: 0,
              version: 1n,
              createdAt: now,
              updatedAt: now,
            });
            this.hypotheses.set(hypothesis.id, hypothesis);
            return { hypothesis: clone(HypothesisSchema, hypothesis) };
          },
          listHypotheses: async (request, context) => {
            const principal = this.record("ListHypotheses", request, context);
            const matching = [...this.hypotheses.values()]
              .filter((h) => h.ownerAccountId === principal.accountId)
              .filter((h) => (request.status === "" ? h.status !== "ARCHIVED" : h.status === request.status))
              .reverse();
            const limit = request.limit || 20;
            return {
              hypotheses: matching.slice(request.offset, request.offset + limit),
              total: BigInt(matching.length),
              limit,
              offset: request.offset,
            };
          },
          getHypothesis: async (request, context) => {
            const principal = this.record("GetHypothesis", request, context);
            return { hypothesis: clone(HypothesisSchema, this.owned(principal, request.hypothesisId)) };
          },
          updateHypothesis: async (request, context) => {
            const principal = this.record("UpdateHypothesis", request, context);
            const hypothesis = this.owned(principal, request.hypothesisId);
            if (hypothesis.status !== "DRAFT")
              throw domainErrorToConnectError(
                new InvalidStateError("not a draft", hypothesis.status, ["DRAFT"]),
              );
            if (request.title !== undefined) hypothesis.title = request.title;
            if (request.statement !== undefined) hypothesis.statement = request.statement;
            if (request.status !== undefined) hypothesis.status = request.status;
            return this.touch(hypothesis);
          },
          archiveHypothesis: async (request, context) => {
            const principal = this.record("ArchiveHypothesis", request, context);
            const hypothesis = this.owned(principal, request.hypothesisId);
            hypothesis.status = "ARCHIVED";
            return this.touch(hypothesis);
          },
          prepareExperimentFromHypothesis: async (request, context) => {
            const principal = this.record("PrepareExperimentFromHypothesis", request, context);
            const hypothesis = this.owned(principal, request.hypothesisId);
            const additional = request.additionalFieldsJson ? JSON.parse(request.additionalFieldsJson) : {};
            return {
              requestJson: JSON.stringify({
                experiment_type: hypothesis.experimentType,
                title: hypothesis.title,
                hypothesis: { statement: hypothesis.statement },
                ...additional,
              }),
              idempotencyKey: `to-experiment:${hypothesis.id}:${request.idempotencyKey || "derived"}`,
              hypothesis: clone(HypothesisSchema, hypothesis),
            };
          },
          linkExperimentToHypothesis: async (request, context) => {
            const principal = this.record("LinkExperimentToHypothesis", request, context);
            const hypothesis = this.owned(principal, request.hypothesisId);
            hypothesis.status = "USED";
            hypothesis.experimentsCount += 1;
            return this.touch(hypothesis);
          },
          createHypothesisFromExperiment: async (request, context) => {
            const principal = this.record("CreateHypothesisFromExperiment", request, context);
            const view = this.experimentViews.get(request.experimentId);
            if (!view || view.requesterAccountId !== principal.accountId)
              throw domainErrorToConnectError(new NotFoundError("experiment", request.experimentId));
            if (view.status === "draft")
              throw domainErrorToConnectError(
                new InvalidStateError("a draft experiment has no submitted hypothesis yet", "draft", [
                  "submitted (any status after draft)",
                ]),
              );
            const now = timestampFromDate(this.clock.now());
            const hypothesis = create(HypothesisSchema, {
              id: `hyp_${String(++this.sequence).padStart(26, "0")}`,
              ownerAccountId: principal.accountId,
              title: request.title || view.title,
              statement: view.statement,
              status: "DRAFT",
              sourceExperimentId: request.experimentId,
              version: 1n,
              createdAt: now,
              updatedAt: now,
            });
            this.hypotheses.set(hypothesis.id, hypothesis);
            return { hypothesis: clone(HypothesisSchema, hypothesis) };
          },
        });
      },
      {
        router: {
          interceptors: serverInterceptors({
            logger: createLogger({ service: "fake-hypotheses", level: "silent" }),
            verifier,
          }),
        },
        transport: { interceptors: clientSide },
      },
    );
  }
}

/** A gateway in front of `identity` and `hypotheses`; every other service answers Health only. */
export async function gatewayWithHypotheses(identity: FakeIdentity, hypotheses: FakeHypotheses) {
  const { signer, verifier } = await internalKeys;
  const clients = createServiceClients(
    (service, clientSide) =>
      service === "hypotheses"
        ? hypotheses.transport(verifier, clientSide)
        : identity.transport(verifier, clientSide, service),
    clientInterceptors(signer),
  );
  return createGateway({ clients, logger: silentLogger, clock: identity.clock, maxBodyBytes: 4096 });
}
