import { create } from "@bufbuild/protobuf";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import {
  CheckLedgerResponseSchema,
  type GetExperimentPaymentRequest,
  GetExperimentPaymentResponseSchema,
  GetMyOperatorResponseSchema,
  type GetOperatorRequest,
  GetOperatorResponseSchema,
  type ListJobsRequest,
  ListJobsResponseSchema,
  type ListOperatorsRequest,
  ListOperatorsResponseSchema,
  type MarketplaceService,
  type RankLabsRequest,
  RankLabsResponseSchema,
  type ReinstateOperatorRequest,
  ReinstateOperatorResponseSchema,
  type RejectOperatorRequest,
  RejectOperatorResponseSchema,
  type SubmitOperatorProfileRequest,
  SubmitOperatorProfileResponseSchema,
  type SuspendOperatorRequest,
  SuspendOperatorResponseSchema,
  type VerifyOperatorRequest,
  VerifyOperatorResponseSchema,
} from "@petri/contracts/marketplace";
import { kPrincipal } from "@petri/service-kit";
import type { makeCheckLedger } from "../app/check-ledger.js";
import type { makeGetExperimentPayment } from "../app/get-experiment-payment.js";
import type { makeGetMyOperator } from "../app/get-my-operator.js";
import type { makeGetOperator } from "../app/get-operator.js";
import type { makeListJobs } from "../app/list-jobs.js";
import type { makeListOperators } from "../app/list-operators.js";
import type { makeRankLabs } from "../app/rank-labs.js";
import type { makeReinstateOperator } from "../app/reinstate-operator.js";
import type { makeRejectOperator } from "../app/reject-operator.js";
import type { makeSubmitOperatorProfile } from "../app/submit-operator-profile.js";
import type { makeSuspendOperator } from "../app/suspend-operator.js";
import type { makeVerifyOperator } from "../app/verify-operator.js";
import { type Audience, authorize } from "../domain/authorization.js";
import { jobMessage, labMatchMessage } from "../contract/job-message.js";
import { operatorMessage } from "../contract/operator-message.js";
import { paymentMessage, postingMessage } from "../contract/payment-message.js";

export interface MarketplaceUseCases {
  submitOperatorProfile: ReturnType<typeof makeSubmitOperatorProfile>;
  getMyOperator: ReturnType<typeof makeGetMyOperator>;
  listOperators: ReturnType<typeof makeListOperators>;
  getOperator: ReturnType<typeof makeGetOperator>;
  verifyOperator: ReturnType<typeof makeVerifyOperator>;
  rejectOperator: ReturnType<typeof makeRejectOperator>;
  suspendOperator: ReturnType<typeof makeSuspendOperator>;
  reinstateOperator: ReturnType<typeof makeReinstateOperator>;
  listJobs: ReturnType<typeof makeListJobs>;
  rankLabs: ReturnType<typeof makeRankLabs>;
  getExperimentPayment: ReturnType<typeof makeGetExperimentPayment>;
  checkLedger: ReturnType<typeof makeCheckLedger>;
}

/**
 * Who may call each procedure (the first line of each handler checks it; the table is
 * checked against the service descriptor by marketplace-rpc.test.ts). What depends on the row
 * (the caller's own operator, an experiment's requester) is checked by the use case.
 */
export const MARKETPLACE_AUDIENCES = {
  submitOperatorProfile: "account",
  getMyOperator: "account",
  listOperators: "staff",
  getOperator: "staff",
  verifyOperator: "staff",
  rejectOperator: "staff",
  suspendOperator: "staff",
  reinstateOperator: "staff",
  listJobs: "account",
  rankLabs: "account",
  getExperimentPayment: "account",
  checkLedger: "staff",
} as const satisfies Record<keyof MarketplaceUseCases, Audience>;

function caller(ctx: HandlerContext, procedure: keyof typeof MARKETPLACE_AUDIENCES) {
  return authorize(ctx.values.get(kPrincipal), MARKETPLACE_AUDIENCES[procedure]);
}

/** Proto <-> domain mapping and the audience of every procedure; the use cases hold the behaviour. */
export class MarketplaceRpc implements ServiceImpl<typeof MarketplaceService> {
  constructor(private readonly useCases: MarketplaceUseCases) {}

  async submitOperatorProfile(request: SubmitOperatorProfileRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "submitOperatorProfile");
    const view = await this.useCases.submitOperatorProfile(principal, { profileJson: request.profileJson });
    return create(SubmitOperatorProfileResponseSchema, { operator: operatorMessage(view) });
  }

  async getMyOperator(_request: unknown, ctx: HandlerContext) {
    const principal = caller(ctx, "getMyOperator");
    const view = await this.useCases.getMyOperator(principal);
    return create(GetMyOperatorResponseSchema, { operator: operatorMessage(view) });
  }

  async listOperators(request: ListOperatorsRequest, ctx: HandlerContext) {
    caller(ctx, "listOperators");
    const page = await this.useCases.listOperators({
      status: request.status,
      limit: request.limit,
      cursor: request.cursor,
      includeTotal: request.includeTotal,
    });
    return create(ListOperatorsResponseSchema, {
      operators: page.operators.map(operatorMessage),
      total: BigInt(page.total ?? 0),
      hasTotal: page.total !== undefined,
      nextCursor: page.nextCursor,
      hasMore: page.hasMore,
    });
  }

  async getOperator(request: GetOperatorRequest, ctx: HandlerContext) {
    caller(ctx, "getOperator");
    const view = await this.useCases.getOperator(request.operatorId);
    return create(GetOperatorResponseSchema, { operator: operatorMessage(view) });
  }

  async verifyOperator(request: VerifyOperatorRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "verifyOperator");
    const view = await this.useCases.verifyOperator(principal, {
      operatorId: request.operatorId,
      verificationJson: request.verificationJson,
    });
    return create(VerifyOperatorResponseSchema, { operator: operatorMessage(view) });
  }

  async rejectOperator(request: RejectOperatorRequest, ctx: HandlerContext) {
    caller(ctx, "rejectOperator");
    const view = await this.useCases.rejectOperator({
      operatorId: request.operatorId,
      reason: request.reason,
    });
    return create(RejectOperatorResponseSchema, { operator: operatorMessage(view) });
  }

  async suspendOperator(request: SuspendOperatorRequest, ctx: HandlerContext) {
    caller(ctx, "suspendOperator");
    const view = await this.useCases.suspendOperator({
      operatorId: request.operatorId,
      reason: request.reason,
    });
    return create(SuspendOperatorResponseSchema, { operator: operatorMessage(view) });
  }

  async reinstateOperator(request: ReinstateOperatorRequest, ctx: HandlerContext) {
    caller(ctx, "reinstateOperator");
    const view = await this.useCases.reinstateOperator({ operatorId: request.operatorId });
    return create(ReinstateOperatorResponseSchema, { operator: operatorMessage(view) });
  }

  async listJobs(request: ListJobsRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "listJobs");
    const page = await this.useCases.listJobs(principal, { limit: request.limit, cursor: request.cursor });
    return create(ListJobsResponseSchema, {
      jobs: page.jobs.map(jobMessage),
      total: BigInt(page.total),
      nextCursor: page.nextCursor,
      hasMore: page.hasMore,
    });
  }

  async rankLabs(request: RankLabsRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "rankLabs");
    const ranking = await this.useCases.rankLabs(principal, {
      experimentId: request.experimentId,
      limit: request.limit,
    });
    return create(RankLabsResponseSchema, {
      labs: ranking.labs.map(labMatchMessage),
      operatorAvailability: ranking.availability,
    });
  }

  async getExperimentPayment(request: GetExperimentPaymentRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "getExperimentPayment");
    const view = await this.useCases.getExperimentPayment(principal, request.experimentId);
    return create(GetExperimentPaymentResponseSchema, {
      payment: paymentMessage(view.experimentId, view.summary, view.status, view.postings.length),
      postings: view.postings.map(postingMessage),
    });
  }

  async checkLedger(_request: unknown, ctx: HandlerContext) {
    caller(ctx, "checkLedger");
    const report = await this.useCases.checkLedger();
    return create(CheckLedgerResponseSchema, {
      balanced: report.ok,
      experiments: BigInt(report.experiments),
      heldCents: BigInt(report.heldCents),
      releasedCents: BigInt(report.releasedCents),
      refundedCents: BigInt(report.refundedCents),
      compensatedCents: BigInt(report.compensatedCents),
      disputeToRequesterCents: BigInt(report.disputeToRequesterCents),
      disputeToOperatorCents: BigInt(report.disputeToOperatorCents),
      stillHeldCents: BigInt(report.stillHeldCents),
      violations: report.violations,
    });
  }
}
