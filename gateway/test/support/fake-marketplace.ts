/**
 * An in-memory MarketplaceService for gateway tests: operator records and their status
 * changes, a seeded job feed, lab rankings, payments and the ledger check, with money in
 * integer cents as the real service sends it. Calls cross a Connect router transport with
 * the real internal-principal interceptors, so each RPC sees (and the fake records) the
 * principal and the exact request the gateway sent.
 */
import { clone, create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type HandlerContext, createRouterTransport } from "@connectrpc/connect";
import { Health, HealthCheckResponse_ServingStatus } from "@petri/contracts/health";
import {
  type CheckLedgerResponse,
  CheckLedgerResponseSchema,
  type ExperimentPayment,
  type Job,
  type LabMatch,
  MarketplaceService,
  type Operator,
  OperatorSchema,
  type Posting,
  QualityMetricsSchema,
} from "@petri/contracts/marketplace";
import type { clientInterceptors } from "@petri/service-kit";
import {
  type Clock,
  type DomainError,
  ForbiddenError,
  InvalidStateError,
  type InternalTokenVerifier,
  NotFoundError,
  type Principal,
  ValidationError,
  createLogger,
  domainErrorToConnectError,
  kPrincipal,
  serverInterceptors,
} from "@petri/service-kit";

const fail = (error: DomainError) => domainErrorToConnectError(error);

export class FakeMarketplace {
  /** Operators by id. */
  readonly operators = new Map<string, Operator>();
  /** The job feed every active operator sees, best match first. */
  jobs: Job[] = [];
  /** Ranked labs by experiment id (unknown experiments are NotFound). */
  readonly rankings = new Map<string, { labs: LabMatch[]; availability: string }>();
  /** Payments by experiment id (unknown experiments are NotFound). */
  readonly payments = new Map<string, { payment: ExperimentPayment; postings: Posting[] }>();
  ledger: CheckLedgerResponse = create(CheckLedgerResponseSchema, { balanced: true });
  /** Every RPC with its request message and the principal it arrived with. */
  readonly calls: Array<{ method: string; request: unknown; principal: Principal | undefined }> = [];
  /** Make an RPC fail with this error (after recording the call). */
  readonly failures = new Map<string, () => Error>();
  private sequence = 0;

  constructor(readonly clock: Clock) {}

  count(method: string): number {
    return this.calls.filter((call) => call.method === method).length;
  }

  last(method: string): any {
    return [...this.calls].reverse().find((call) => call.method === method)?.request;
  }

  /** Stores an operator of `accountId` in `status` (for tests that need one). */
  addOperator(accountId: string, status = "active", labName = "Lab One"): Operator {
    const now = timestampFromDate(this.clock.now());
    const operator = create(OperatorSchema, {
      id: `op_${String(++this.sequence).padStart(26, "0")}`,
      accountId,
      status,
      labName,
      profileJson: JSON.stringify({ identity: { type: "academic_core", display_name: labName } }),
      quality: create(QualityMetricsSchema, { onTimeRate: 1, totalJobsCompleted: 0, ratingsCount: 0 }),
      version: 1n,
      createdAt: now,
      updatedAt: now,
    });
    this.operators.set(operator.id, operator);
    return operator;
  }

  private record(method: string, request: unknown, context: HandlerContext): Principal {
    const principal = context.values.get(kPrincipal);
    this.calls.push({ method, request, principal });
    const failure = this.failures.get(method);
    if (failure) throw failure();
    if (!principal) throw new Error("no principal");
    return principal;
  }

  private staff(method: string, request: unknown, context: HandlerContext): Principal {
    const principal = this.record(method, request, context);
    if (principal.role !== "staff") throw fail(new ForbiddenError("staff only"));
    return principal;
  }

  private mine(accountId: string): Operator | undefined {
    return [...this.operators.values()].find((operator) => operator.accountId === accountId);
  }

  private byId(id: string): Operator {
    const operator = this.operators.get(id);
    if (!operator) throw fail(new NotFoundError("operator", id));
    return operator;
  }

  private move(operator: Operator, from: string[], to: string, reason = "") {
    if (!from.includes(operator.status))
      throw fail(new InvalidStateError(`cannot do this while ${operator.status}`, operator.status, from));
    operator.status = to;
    operator.statusReason = reason;
    operator.version += 1n;
    operator.updatedAt = timestampFromDate(this.clock.now());
    return { operator: clone(OperatorSchema, operator) };
  }

  transport(verifier: InternalTokenVerifier, clientSide: ReturnType<typeof clientInterceptors>) {
    return createRouterTransport(
      (router) => {
        router.service(Health, {
          check: async () => ({ status: HealthCheckResponse_ServingStatus.SERVING }),
        });
        router.service(MarketplaceService, {
          submitOperatorProfile: async (request, context) => {
            const principal = this.record("SubmitOperatorProfile", request, context);
            const profile = JSON.parse(request.profileJson) as Record<string, any>;
            if (!profile.identity)
              throw fail(
                new ValidationError("the profile is invalid", [
                  { field: "identity", code: "missing_required", message: "required" },
                ]),
              );
            const labName = String(profile.identity.display_name ?? "");
            const existing = this.mine(principal.accountId);
            const operator =
              existing ?? this.addOperator(principal.accountId, "pending_verification", labName);
            operator.profileJson = request.profileJson;
            operator.labName = labName;
            if (existing)
              return this.move(
                existing,
                ["onboarding", "rejected", "pending_verification"],
                "pending_verification",
              );
            return { operator: clone(OperatorSchema, operator) };
          },
          getMyOperator: async (request, context) => {
            const principal = this.record("GetMyOperator", request, context);
            const operator = this.mine(principal.accountId);
            if (!operator) throw fail(new NotFoundError("operator", principal.accountId));
            return { operator: clone(OperatorSchema, operator) };
          },
          listOperators: async (request, context) => {
            this.staff("ListOperators", request, context);
            const matching = [...this.operators.values()].filter(
              (o) => !request.status || o.status === request.status,
            );
            const start = request.cursor ? Number(request.cursor.replace("o", "")) : 0;
            const size = request.limit || 20;
            const hasMore = start + size < matching.length;
            const hasTotal = request.includeTotal || (start === 0 && !hasMore);
            return {
              operators: matching.slice(start, start + size).map((o) => clone(OperatorSchema, o)),
              total: hasTotal ? BigInt(matching.length) : 0n,
              hasTotal,
              nextCursor: hasMore ? `o${start + size}` : "",
              hasMore,
            };
          },
          getOperator: async (request, context) => {
            this.staff("GetOperator", request, context);
            return { operator: clone(OperatorSchema, this.byId(request.operatorId)) };
          },
          verifyOperator: async (request, context) => {
            this.staff("VerifyOperator", request, context);
            const operator = this.byId(request.operatorId);
            const record = JSON.parse(request.verificationJson) as Record<string, unknown>;
            if (typeof record.identity_verified !== "boolean")
              throw fail(
                new ValidationError("the verification record is invalid", [
                  { field: "identity_verified", code: "missing_required", message: "required" },
                ]),
              );
            operator.verificationJson = request.verificationJson;
            return this.move(operator, ["pending_verification"], "active");
          },
          rejectOperator: async (request, context) => {
            this.staff("RejectOperator", request, context);
            return this.move(
              this.byId(request.operatorId),
              ["pending_verification"],
              "rejected",
              request.reason,
            );
          },
          suspendOperator: async (request, context) => {
            this.staff("SuspendOperator", request, context);
            return this.move(
              this.byId(request.operatorId),
              ["active", "paused"],
              "suspended",
              request.reason,
            );
          },
          reinstateOperator: async (request, context) => {
            this.staff("ReinstateOperator", request, context);
            return this.move(this.byId(request.operatorId), ["suspended"], "active");
          },
          listJobs: async (request, context) => {
            const principal = this.record("ListJobs", request, context);
            if (this.mine(principal.accountId)?.status !== "active")
              throw fail(new ForbiddenError("not an active verified operator"));
            const start = request.cursor ? Number(request.cursor.replace("j", "")) : 0;
            const size = request.limit || 20;
            const hasMore = start + size < this.jobs.length;
            return {
              jobs: this.jobs.slice(start, start + size),
              total: BigInt(this.jobs.length),
              nextCursor: hasMore ? `j${start + size}` : "",
              hasMore,
            };
          },
          rankLabs: async (request, context) => {
            this.record("RankLabs", request, context);
            const ranking = this.rankings.get(request.experimentId);
            if (!ranking) throw fail(new NotFoundError("experiment", request.experimentId));
            return {
              labs: ranking.labs.slice(0, request.limit || 20),
              operatorAvailability: ranking.availability,
            };
          },
          getExperimentPayment: async (request, context) => {
            this.record("GetExperimentPayment", request, context);
            const found = this.payments.get(request.experimentId);
            if (!found) throw fail(new NotFoundError("experiment", request.experimentId));
            return found;
          },
          checkLedger: async (request, context) => {
            this.staff("CheckLedger", request, context);
            return this.ledger;
          },
        });
      },
      {
        router: {
          interceptors: serverInterceptors({
            logger: createLogger({ service: "fake-marketplace", level: "silent" }),
            verifier,
          }),
        },
        transport: { interceptors: clientSide },
      },
    );
  }
}
