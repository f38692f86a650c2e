import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import {
  type ApproveResultsRequest,
  ApproveResultsResponseSchema,
  type DisputeResultsRequest,
  DisputeResultsResponseSchema,
  type ExperimentsService,
  type GetResultFileRequest,
  GetResultFileResponseSchema,
  type GetResultsRequest,
  GetResultsResponseSchema,
} from "@petri/contracts/experiments";
import { caller } from "./audiences.js";
import { disputeMessage, experimentMessage } from "../contract/experiment-message.js";
import { resultsForms } from "../contract/results-message.js";
import type { ExperimentsUseCases } from "./use-cases.js";

/** Unix seconds from the wire; a value no signed URL carries reads as 0 (expired long ago). */
function unixSeconds(value: bigint): number {
  return value >= 0n && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : 0;
}

/** Reading results and files, approving and disputing them: proto <-> domain mapping only. */
export function resultsRpc(useCases: ExperimentsUseCases) {
  return {
    async getResults(request: GetResultsRequest, ctx: HandlerContext) {
      const principal = caller(ctx, "getResults");
      const signed = await useCases.getResults(principal, request.experimentId);
      return create(GetResultsResponseSchema, {
        ...resultsForms(signed.record),
        urlsExpireAt: timestampFromDate(signed.urlsExpireAt),
      });
    },

    async getResultFile(request: GetResultFileRequest, ctx: HandlerContext) {
      caller(ctx, "getResultFile");
      const { file, bytes } = await useCases.getResultFile({
        fileId: request.fileId,
        expires: unixSeconds(request.expires),
        signature: request.signature,
      });
      return create(GetResultFileResponseSchema, {
        content: bytes,
        name: file.name,
        contentType: file.content_type,
        checksumSha256: file.sha256,
      });
    },

    async approveResults(request: ApproveResultsRequest, ctx: HandlerContext) {
      const principal = caller(ctx, "approveResults");
      const approved = await useCases.approveResults(principal, {
        experimentId: request.experimentId,
        rating: request.rating,
        feedback: request.feedback,
      });
      return create(ApproveResultsResponseSchema, {
        experiment: experimentMessage(approved.experiment),
        paymentReleased: approved.paymentReleased,
      });
    },

    async disputeResults(request: DisputeResultsRequest, ctx: HandlerContext) {
      const principal = caller(ctx, "disputeResults");
      const disputed = await useCases.disputeResults(principal, {
        experimentId: request.experimentId,
        reason: request.reason,
        description: request.description,
        evidenceUrls: request.evidenceUrls,
      });
      return create(DisputeResultsResponseSchema, {
        experiment: experimentMessage(disputed.experiment),
        dispute: disputeMessage(disputed.dispute),
      });
    },
  } satisfies Partial<ServiceImpl<typeof ExperimentsService>>;
}
