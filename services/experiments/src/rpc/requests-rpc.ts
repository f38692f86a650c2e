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
  type CreateExperimentFromHypothesisRequest,
  CreateExperimentFromHypothesisResponseSchema,
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
import { ValidationError } from "@petri/service-kit";
import type { ExperimentListPage } from "../app/list-experiments.js";
import {
  estimateMessage,
  experimentMessage,
  issueMessage,
  statusFromMessage,
} from "../contract/experiment-message.js";
import { catalogueSummaryForms, catalogueTemplateForms } from "../contract/template-message.js";

import { caller } from "./audiences.js";
import { createExperimentResponse } from "./create-experiment-response.js";
import type { ExperimentsUseCases } from "./use-cases.js";

function pageMessage(page: ExperimentListPage) {
  return {
    experiments: page.experiments.map(experimentMessage),
    total: BigInt(page.total ?? 0),
    hasTotal: page.total !== undefined,
    nextCursor: page.nextCursor,
    hasMore: page.hasMore,
  };
}

/**
 * The requester's and staff's procedures on requests (create, read, list, patch, cancel,
 * validate, estimate, templates, review, protocol design): proto <-> domain mapping only.
 */
export function requestsRpc(useCases: ExperimentsUseCases) {
  return {
    ...requestLifecycleRpc(useCases),
    ...requestToolsRpc(useCases),
    ...reviewRpc(useCases),
  } satisfies Partial<ServiceImpl<typeof ExperimentsService>>;
}

/** Create, submit, read, list, change and cancel requests. */
function requestLifecycleRpc(useCases: ExperimentsUseCases) {
  return {
    async createExperiment(request: CreateExperimentRequest, ctx: HandlerContext) {
      const principal = caller(ctx, "createExperiment");
      const outcome = await useCases.createExperiment(principal, {
        requestJson: request.requestJson,
        saveAsDraft: request.saveAsDraft,
        idempotencyKey: request.idempotencyKey,
        sourceHypothesisId: request.sourceHypothesisId,
      });
      return createExperimentResponse(outcome);
    },

    async createExperimentFromHypothesis(
      request: CreateExperimentFromHypothesisRequest,
      ctx: HandlerContext,
    ) {
      const principal = caller(ctx, "createExperimentFromHypothesis");
      const outcome = await useCases.createExperimentFromHypothesis(principal, {
        hypothesisId: request.hypothesisId,
        additionalFieldsJson: request.additionalFieldsJson,
        idempotencyKey: request.idempotencyKey,
      });
      const { experiment, warnings, replayed } = createExperimentResponse(outcome);
      return create(CreateExperimentFromHypothesisResponseSchema, { experiment, warnings, replayed });
    },

    async submitDraft(request: SubmitDraftRequest, ctx: HandlerContext) {
      const principal = caller(ctx, "submitDraft");
      const submitted = await useCases.submitDraft(principal, request.experimentId);
      return create(SubmitDraftResponseSchema, {
        experiment: experimentMessage(submitted.experiment),
        warnings: submitted.warnings.map(issueMessage),
      });
    },

    async getExperiment(request: GetExperimentRequest, ctx: HandlerContext) {
      const principal = caller(ctx, "getExperiment");
      const row = await useCases.getExperiment(principal, request.experimentId);
      return create(GetExperimentResponseSchema, { experiment: experimentMessage(row) });
    },

    async listExperiments(request: ListExperimentsRequest, ctx: HandlerContext) {
      const principal = caller(ctx, "listExperiments");
      const status = statusFromMessage(request.status);
      if (request.status !== ExperimentStatusMessage.UNSPECIFIED && !status)
        throw new ValidationError("the status is unknown", [
          { field: "status", code: "invalid_value", message: "status is not a known experiment status" },
        ]);
      const page = await useCases.listExperiments(principal, {
        status,
        createdAfter: request.createdAfter ? timestampDate(request.createdAfter) : undefined,
        createdBefore: request.createdBefore ? timestampDate(request.createdBefore) : undefined,
        limit: request.limit,
        cursor: request.cursor,
        includeTotal: request.includeTotal,
      });
      return create(ListExperimentsResponseSchema, pageMessage(page));
    },

    async updateExperiment(request: UpdateExperimentRequest, ctx: HandlerContext) {
      const principal = caller(ctx, "updateExperiment");
      const row = await useCases.updateExperiment(principal, {
        experimentId: request.experimentId,
        patchJson: request.patchJson,
      });
      return create(UpdateExperimentResponseSchema, { experiment: experimentMessage(row) });
    },

    async cancelExperiment(request: CancelExperimentRequest, ctx: HandlerContext) {
      const principal = caller(ctx, "cancelExperiment");
      const row = await useCases.cancelExperiment(principal, {
        experimentId: request.experimentId,
        reason: request.reason,
      });
      return create(CancelExperimentResponseSchema, { experiment: experimentMessage(row) });
    },
  } satisfies Partial<ServiceImpl<typeof ExperimentsService>>;
}

/** Validation, estimates and templates: answers about a request, nothing stored. */
function requestToolsRpc(useCases: ExperimentsUseCases) {
  return {
    async validateExperiment(request: ValidateExperimentRequest, ctx: HandlerContext) {
      caller(ctx, "validateExperiment");
      const result = useCases.validateExperiment(request.requestJson);
      return create(ValidateExperimentResponseSchema, {
        valid: result.valid,
        errors: result.errors.map(issueMessage),
        warnings: result.warnings.map(issueMessage),
        safetyFlags: result.safety_flags,
      });
    },

    async validateHypothesis(request: ValidateHypothesisRequest, ctx: HandlerContext) {
      caller(ctx, "validateHypothesis");
      const result = useCases.validateHypothesis({
        statement: request.statement,
        nullHypothesis: request.nullHypothesis,
        rationale: request.rationale,
      });
      return create(ValidateHypothesisResponseSchema, {
        valid: result.valid,
        errors: result.errors.map(issueMessage),
        suggestions: result.suggestions,
      });
    },

    async estimateExperiment(request: EstimateExperimentRequest, ctx: HandlerContext) {
      caller(ctx, "estimateExperiment");
      const estimate = await useCases.estimateExperiment(request.requestJson);
      return create(EstimateExperimentResponseSchema, { estimate: estimateMessage(estimate) });
    },

    async listTemplates(request: ListTemplatesRequest, ctx: HandlerContext) {
      caller(ctx, "listTemplates");
      const items = useCases.listTemplates({ category: request.category, bslLevel: request.bslLevel });
      const forms = items.map(catalogueSummaryForms);
      const typed = forms.every((form) => form.message !== undefined);
      return create(ListTemplatesResponseSchema, {
        templatesJson: forms.map((form) => form.json),
        templates: typed ? forms.map((form) => form.message!) : [],
      });
    },

    async getTemplate(request: GetTemplateRequest, ctx: HandlerContext) {
      caller(ctx, "getTemplate");
      const template = useCases.getTemplate(request.templateId);
      const forms = catalogueTemplateForms(template);
      return create(GetTemplateResponseSchema, { templateJson: forms.json, template: forms.message });
    },
  } satisfies Partial<ServiceImpl<typeof ExperimentsService>>;
}

/** Staff review and protocol design. */
function reviewRpc(useCases: ExperimentsUseCases) {
  return {
    async listReviewQueue(request: ListReviewQueueRequest, ctx: HandlerContext) {
      const principal = caller(ctx, "listReviewQueue");
      const page = await useCases.listReviewQueue(principal, {
        limit: request.limit,
        cursor: request.cursor,
        includeTotal: request.includeTotal,
      });
      return create(ListReviewQueueResponseSchema, pageMessage(page));
    },

    async approveReview(request: ApproveReviewRequest, ctx: HandlerContext) {
      const principal = caller(ctx, "approveReview");
      const row = await useCases.approveReview(principal, {
        experimentId: request.experimentId,
        note: request.note,
      });
      return create(ApproveReviewResponseSchema, { experiment: experimentMessage(row) });
    },

    async rejectReview(request: RejectReviewRequest, ctx: HandlerContext) {
      const principal = caller(ctx, "rejectReview");
      const row = await useCases.rejectReview(principal, {
        experimentId: request.experimentId,
        reason: request.reason,
      });
      return create(RejectReviewResponseSchema, { experiment: experimentMessage(row) });
    },

    async proposeProtocol(request: ProposeProtocolRequest, ctx: HandlerContext) {
      const principal = caller(ctx, "proposeProtocol");
      const row = await useCases.proposeProtocol(principal, {
        experimentId: request.experimentId,
        protocolJson: request.protocolJson,
        note: request.note,
      });
      return create(ProposeProtocolResponseSchema, { experiment: experimentMessage(row) });
    },

    async acceptProtocolProposal(request: AcceptProtocolProposalRequest, ctx: HandlerContext) {
      const principal = caller(ctx, "acceptProtocolProposal");
      const row = await useCases.acceptProtocolProposal(principal, request.experimentId);
      return create(AcceptProtocolProposalResponseSchema, { experiment: experimentMessage(row) });
    },

    async requestProtocolChanges(request: RequestProtocolChangesRequest, ctx: HandlerContext) {
      const principal = caller(ctx, "requestProtocolChanges");
      const row = await useCases.requestProtocolChanges(principal, {
        experimentId: request.experimentId,
        comments: request.comments,
      });
      return create(RequestProtocolChangesResponseSchema, { experiment: experimentMessage(row) });
    },
  } satisfies Partial<ServiceImpl<typeof ExperimentsService>>;
}
