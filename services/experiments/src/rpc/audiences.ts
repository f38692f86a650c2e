import type { HandlerContext } from "@connectrpc/connect";
import { kPrincipal } from "@petri/service-kit";
import { type Audience, authorize } from "../domain/authorization.js";
import type { ExperimentsUseCases } from "./use-cases.js";

/**
 * Who may call each procedure (the first line of each handler checks it; the table is
 * checked against the service descriptor by experiments-rpc.test.ts). Ownership of a given
 * experiment (requester, assigned operator) is checked by the use case, where the row is;
 * being a verified operator too (the operator_eligibility projection).
 */
export const EXPERIMENTS_AUDIENCES = {
  createExperiment: "account",
  createExperimentFromHypothesis: "account",
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
  claimExperiment: "account",
  startExperiment: "account",
  reportIssue: "account",
  submitResults: "account",
  uploadResults: "account",
  getResults: "account",
  // The signed URL is the credential: the gateway calls with its system principal.
  getResultFile: "signed_link",
  approveResults: "account",
  disputeResults: "account",
  listDisputes: "staff",
  getDispute: "staff",
  resolveDispute: "staff",
} as const satisfies Record<keyof ExperimentsUseCases, Audience>;

export function caller(ctx: HandlerContext, procedure: keyof typeof EXPERIMENTS_AUDIENCES) {
  return authorize(ctx.values.get(kPrincipal), EXPERIMENTS_AUDIENCES[procedure]);
}
