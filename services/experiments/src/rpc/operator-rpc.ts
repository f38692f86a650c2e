import { create } from "@bufbuild/protobuf";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import {
  type ClaimExperimentRequest,
  ClaimExperimentResponseSchema,
  type ExperimentsService,
  type ReportIssueRequest,
  ReportIssueResponseSchema,
  type StartExperimentRequest,
  StartExperimentResponseSchema,
  type SubmitResultsRequest,
  SubmitResultsResponseSchema,
  type UploadResultsRequest,
  UploadResultsResponseSchema,
} from "@petri/contracts/experiments";
import { ValidationError } from "@petri/service-kit";
import type { UploadPart } from "../app/results-upload-receiver.js";
import { caller } from "./audiences.js";
import { experimentMessage, operatorIssueMessage } from "../contract/experiment-message.js";
import type { ExperimentsUseCases } from "./use-cases.js";

/** The operator's procedures (claim, start, issues, results): proto <-> domain mapping only. */
export function operatorRpc(useCases: ExperimentsUseCases) {
  return {
    async claimExperiment(request: ClaimExperimentRequest, ctx: HandlerContext) {
      const principal = caller(ctx, "claimExperiment");
      const record = await useCases.claimExperiment(principal, {
        experimentId: request.experimentId,
        equipmentConfirmation: request.equipmentConfirmation,
        authorizationConfirmation: request.authorizationConfirmation,
        estimatedStartDate: request.estimatedStartDate,
        notes: request.notes,
      });
      return create(ClaimExperimentResponseSchema, { experiment: experimentMessage(record) });
    },

    async startExperiment(request: StartExperimentRequest, ctx: HandlerContext) {
      const principal = caller(ctx, "startExperiment");
      const record = await useCases.startExperiment(principal, request.experimentId);
      return create(StartExperimentResponseSchema, { experiment: experimentMessage(record) });
    },

    async reportIssue(request: ReportIssueRequest, ctx: HandlerContext) {
      const principal = caller(ctx, "reportIssue");
      const reported = await useCases.reportIssue(principal, {
        experimentId: request.experimentId,
        description: request.description,
        severity: request.severity,
      });
      return create(ReportIssueResponseSchema, {
        experiment: experimentMessage(reported.experiment),
        issue: operatorIssueMessage(reported.issue),
      });
    },

    async submitResults(request: SubmitResultsRequest, ctx: HandlerContext) {
      const principal = caller(ctx, "submitResults");
      const record = await useCases.submitResults(principal, {
        experimentId: request.experimentId,
        resultsJson: request.resultsJson,
      });
      return create(SubmitResultsResponseSchema, { experiment: experimentMessage(record) });
    },

    async uploadResults(requests: AsyncIterable<UploadResultsRequest>, ctx: HandlerContext) {
      const principal = caller(ctx, "uploadResults");
      const record = await useCases.uploadResults(principal, uploadParts(requests));
      return create(UploadResultsResponseSchema, { experiment: experimentMessage(record) });
    },
  } satisfies Partial<ServiceImpl<typeof ExperimentsService>>;
}

async function* uploadParts(requests: AsyncIterable<UploadResultsRequest>): AsyncGenerator<UploadPart> {
  for await (const { part } of requests) {
    switch (part.case) {
      case "experimentId":
        yield { kind: "experiment", experimentId: part.value };
        break;
      case "fileField":
        yield { kind: "file", field: part.value };
        break;
      case "fileBase64":
        yield { kind: "base64", text: part.value };
        break;
      case "fieldsJson":
        yield { kind: "fields", json: part.value };
        break;
      default:
        throw new ValidationError("the upload is malformed", [
          { field: "", code: "invalid_value", message: "an upload message carries nothing" },
        ]);
    }
  }
}
