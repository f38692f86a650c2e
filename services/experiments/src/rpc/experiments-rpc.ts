import { create } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import {
  type AcceptProtocolProposalRequest,
  AcceptProtocolProposalResponseSchema,
  type ApproveReviewRequest,
  ApproveReviewResponseSchema,
  type CancelExperimentRequest,
  CancelExperimentResponseSchema,
  type CreateExperimentRequest,
  type EstimateExperimentRequest,
  EstimateExperimentResponseSchema,
  ExperimentStatus as ExperimentStatusMessage,
  type ExperimentsService,
  type GetExperimentRequest,
  GetExperimentResponseSchema,
  type GetTemplateRequest,
  GetTemplateResponseSchema,
  type ListExperimentsRequest,
  ListExperimentsResponseSchema,
  type ListReviewQueueRequest,
  ListReviewQueueResponseSchema,
  type ListTemplatesRequest,
  ListTemplatesResponseSchema,
  type ProposeProtocolRequest,
  ProposeProtocolResponseSchema,
  type RejectReviewRequest,
  RejectReviewResponseSchema,
  type RequestProtocolChangesRequest,
  RequestProtocolChangesResponseSchema,
  type SubmitDraftRequest,
  SubmitDraftResponseSchema,
  type UpdateExperimentRequest,
  UpdateExperimentResponseSchema,
  type ValidateExperimentRequest,
  ValidateExperimentResponseSchema,
  type ValidateHypothesisRequest,
  ValidateHypothesisResponseSchema,
} from "@petri/contracts/experiments";
import { ValidationError, kPrincipal } from "@petri/service-kit";
import type { makeAcceptProtocolProposal } from "../app/accept-protocol-proposal.js";
import type { makeApproveReview } from "../app/approve-review.js";
import type { makeCancelExperiment } from "../app/cancel-experiment.js";
import type { makeCreateExperiment } from "../app/create-experiment.js";
import type { makeEstimateExperiment } from "../app/estimate-experiment.js";
import type { makeGetExperiment } from "../app/get-experiment.js";
import type { makeGetTemplate } from "../app/get-template.js";
import type { ExperimentListPage, makeListExperiments } from "../app/list-experiments.js";
import type { makeListReviewQueue } from "../app/list-review-queue.js";
import type { makeListTemplates } from "../app/list-templates.js";
import type { makeProposeProtocol } from "../app/propose-protocol.js";
import type { makeRejectReview } from "../app/reject-review.js";
import type { makeRequestProtocolChanges } from "../app/request-protocol-changes.js";
import type { makeSubmitDraft } from "../app/submit-draft.js";
import type { makeUpdateExperiment } from "../app/update-experiment.js";
import type { makeValidateExperiment } from "../app/validate-experiment.js";
import type { makeValidateHypothesis } from "../app/validate-hypothesis.js";
import { type Audience, authorize } from "../domain/authorization.js";
import { estimateMessage, experimentMessage, issueMessage, statusFromMessage } from "./experiment-message.js";

export interface ExperimentsUseCases {
  createExperiment: ReturnType<typeof makeCreateExperiment>;
  submitDraft: ReturnType<typeof makeSubmitDraft>;
  getExperiment: ReturnType<typeof makeGetExperiment>;
  listExperiments: ReturnType<typeof makeListExperiments>;
  updateExperiment: ReturnType<typeof makeUpdateExperiment>;
  cancelExperiment: ReturnType<typeof makeCancelExperiment>;
  validateExperiment: ReturnType<typeof makeValidateExperiment>;
  validateHypothesis: ReturnType<typeof makeValidateHypothesis>;
  estimateExperiment: ReturnType<typeof makeEstimateExperiment>;
  listTemplates: ReturnType<typeof makeListTemplates>;
  getTemplate: ReturnType<typeof makeGetTemplate>;
  listReviewQueue: ReturnType<typeof makeListReviewQueue>;
  approveReview: ReturnType<typeof makeApproveReview>;
  rejectReview: ReturnType<typeof makeRejectReview>;
  proposeProtocol: ReturnType<typeof makeProposeProtocol>;
  acceptProtocolProposal: ReturnType<typeof makeAcceptProtocolProposal>;
  requestProtocolChanges: ReturnType<typeof makeRequestProtocolChanges>;
}

/**
 * Who may call each procedure (the first line of each handler checks it; the table is
 * checked against the service descriptor by experiments-rpc.test.ts). Ownership of a given
 * experiment is checked by the use case, where the row is.
 */
export const EXPERIMENTS_AUDIENCES = {
  createExperiment: "account",
  submitDraft: "account",
  getExperiment: "account",
  listExperiments: "account",
  updateExperiment: "account",
  cancelExperiment: "account",
  validateExperiment: "account",
  validateHypothesis: "account",
  estimateExperiment: "account",
  listTemplates: "account",
  getTemplate: "account",
  listReviewQueue: "staff",
  approveReview: "staff",
  rejectReview: "staff",
  proposeProtocol: "staff",
  acceptProtocolProposal: "account",
  requestProtocolChanges: "account",
} as const satisfies Record<keyof ExperimentsUseCases, Audience>;

function caller(ctx: HandlerContext, procedure: keyof typeof EXPERIMENTS_AUDIENCES) {
  return authorize(ctx.values.get(kPrincipal), EXPERIMENTS_AUDIENCES[procedure]);
}

function pageMessage(page: ExperimentListPage) {
  return {
    experiments: page.experiments.map(experimentMessage),
    total: BigInt(page.total),
    nextCursor: page.nextCursor,
    hasMore: page.hasMore,
  };
}

/** Proto <-> domain mapping and the audience of every procedure; the use cases hold the behaviour. */
export class ExperimentsRpc implements ServiceImpl<typeof ExperimentsService> {
  constructor(private readonly useCases: ExperimentsUseCases) {}

  async createExperiment(request: CreateExperimentRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "createExperiment");
    return this.useCases.createExperiment(principal, {
      requestJson: request.requestJson,
      saveAsDraft: request.saveAsDraft,
      idempotencyKey: request.idempotencyKey,
    });
  }

  async submitDraft(request: SubmitDraftRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "submitDraft");
    const submitted = await this.useCases.submitDraft(principal, request.experimentId);
    return create(SubmitDraftResponseSchema, {
      experiment: experimentMessage(submitted.experiment),
      warnings: submitted.warnings.map(issueMessage),
    });
  }

  async getExperiment(request: GetExperimentRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "getExperiment");
    const row = await this.useCases.getExperiment(principal, request.experimentId);
    return create(GetExperimentResponseSchema, { experiment: experimentMessage(row) });
  }

  async listExperiments(request: ListExperimentsRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "listExperiments");
    const status = statusFromMessage(request.status);
    if (request.status !== ExperimentStatusMessage.UNSPECIFIED && !status)
      throw new ValidationError("the status is unknown", [
        { field: "status", code: "invalid_value", message: "status is not a known experiment status" },
      ]);
    const page = await this.useCases.listExperiments(principal, {
      status,
      createdAfter: request.createdAfter ? timestampDate(request.createdAfter) : undefined,
      createdBefore: request.createdBefore ? timestampDate(request.createdBefore) : undefined,
      limit: request.limit,
      cursor: request.cursor,
    });
    return create(ListExperimentsResponseSchema, pageMessage(page));
  }

  async updateExperiment(request: UpdateExperimentRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "updateExperiment");
    const row = await this.useCases.updateExperiment(principal, {
      experimentId: request.experimentId,
      patchJson: request.patchJson,
    });
    return create(UpdateExperimentResponseSchema, { experiment: experimentMessage(row) });
  }

  async cancelExperiment(request: CancelExperimentRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "cancelExperiment");
    const row = await this.useCases.cancelExperiment(principal, {
      experimentId: request.experimentId,
      reason: request.reason,
    });
    return create(CancelExperimentResponseSchema, { experiment: experimentMessage(row) });
  }

  async validateExperiment(request: ValidateExperimentRequest, ctx: HandlerContext) {
    caller(ctx, "validateExperiment");
    const result = this.useCases.validateExperiment(request.requestJson);
    return create(ValidateExperimentResponseSchema, {
      valid: result.valid,
      errors: result.errors.map(issueMessage),
      warnings: result.warnings.map(issueMessage),
      safetyFlags: result.safety_flags,
    });
  }

  async validateHypothesis(request: ValidateHypothesisRequest, ctx: HandlerContext) {
    caller(ctx, "validateHypothesis");
    const result = this.useCases.validateHypothesis({
      statement: request.statement,
      nullHypothesis: request.nullHypothesis,
      rationale: request.rationale,
    });
    return create(ValidateHypothesisResponseSchema, {
      valid: result.valid,
      errors: result.errors.map(issueMessage),
      suggestions: result.suggestions,
    });
  }

  async estimateExperiment(request: EstimateExperimentRequest, ctx: HandlerContext) {
    caller(ctx, "estimateExperiment");
    const estimate = await this.useCases.estimateExperiment(request.requestJson);
    return create(EstimateExperimentResponseSchema, { estimate: estimateMessage(estimate) });
  }

  async listTemplates(request: ListTemplatesRequest, ctx: HandlerContext) {
    caller(ctx, "listTemplates");
    const items = this.useCases.listTemplates({ category: request.category, bslLevel: request.bslLevel });
    return create(ListTemplatesResponseSchema, { templatesJson: items.map((item) => JSON.stringify(item)) });
  }

  async getTemplate(request: GetTemplateRequest, ctx: HandlerContext) {
    caller(ctx, "getTemplate");
    const template = this.useCases.getTemplate(request.templateId);
    return create(GetTemplateResponseSchema, { templateJson: JSON.stringify(template) });
  }

  async listReviewQueue(request: ListReviewQueueRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "listReviewQueue");
    const page = await this.useCases.listReviewQueue(principal, {
      limit: request.limit,
      cursor: request.cursor,
    });
    return create(ListReviewQueueResponseSchema, pageMessage(page));
  }

  async approveReview(request: ApproveReviewRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "approveReview");
    const row = await this.useCases.approveReview(principal, {
      experimentId: request.experimentId,
      note: request.note,
    });
    return create(ApproveReviewResponseSchema, { experiment: experimentMessage(row) });
  }

  async rejectReview(request: RejectReviewRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "rejectReview");
    const row = await this.useCases.rejectReview(principal, {
      experimentId: request.experimentId,
      reason: request.reason,
    });
    return create(RejectReviewResponseSchema, { experiment: experimentMessage(row) });
  }

  async proposeProtocol(request: ProposeProtocolRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "proposeProtocol");
    const row = await this.useCases.proposeProtocol(principal, {
      experimentId: request.experimentId,
      protocolJson: request.protocolJson,
      note: request.note,
    });
    return create(ProposeProtocolResponseSchema, { experiment: experimentMessage(row) });
  }

  async acceptProtocolProposal(request: AcceptProtocolProposalRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "acceptProtocolProposal");
    const row = await this.useCases.acceptProtocolProposal(principal, request.experimentId);
    return create(AcceptProtocolProposalResponseSchema, { experiment: experimentMessage(row) });
  }

  async requestProtocolChanges(request: RequestProtocolChangesRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "requestProtocolChanges");
    const row = await this.useCases.requestProtocolChanges(principal, {
      experimentId: request.experimentId,
      comments: request.comments,
    });
    return create(RequestProtocolChangesResponseSchema, { experiment: experimentMessage(row) });
  }
}
