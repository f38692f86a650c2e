/**
 * What the conformance suite sends where, given the world: the path parameters and query of
 * every operation, who calls it, and a valid body for every operation that takes one (so that
 * an authorization cell meets the authorization check, not the body's validation).
 */
import { micRequest, proposedProtocol } from "../experiments.scenarios.js";
import { CLAIM, operatorProfile, resultsBody, verificationRecord } from "../marketplace.scenarios.js";
import type { Operation } from "./openapi-contract.js";
import type { RoleName, World } from "./conformance-world.js";

export type CallerName = RoleName | "anonymous";

/** Staff-only operations: /admin/... and their deprecated /staff/... aliases. */
export function staffOnly(operation: Operation): boolean {
  return /^\/(admin|staff)\//.test(operation.path);
}

/** Operations of the assigned lab (the job it claimed). */
export function labJob(operation: Operation): boolean {
  return operation.path.startsWith("/operator/jobs/{");
}

/** Who calls an operation in the positive and negative cases. */
export function naturalCaller(operation: Operation): CallerName {
  if (!operation.authenticated) return "anonymous";
  if (staffOnly(operation)) return "staff";
  // Re-submitting the profile of a verified lab would send it back to verification.
  if (operation.path === "/operator/profile") return "unverified";
  if (operation.path.startsWith("/operator/")) return "operator";
  return "owner";
}

/** The experiment an operation is called on (the one in a state where it can succeed). */
function experimentFor(operation: Operation, world: World): string {
  const e = world.experiments;
  switch (operation.operationId) {
    case "submitDraft":
      return e.draft;
    case "approveReview":
      return e.review;
    case "rejectReview":
      return e.rejectable;
    case "approveReviewLegacy":
      return e.legacyApprovable;
    case "rejectReviewLegacy":
      return e.legacyRejectable;
    case "proposeProtocol":
    case "proposeProtocolLegacy":
    case "acceptProtocolProposal":
    case "requestProtocolChanges":
      return e.design;
    case "updateExperiment":
    case "cancelExperiment":
    case "translateExperimentForCloudLab":
      return e.open;
    default:
      return e.pending;
  }
}

export function pathParams(operation: Operation, world: World): Record<string, string> {
  const params: Record<string, string> = {};
  for (const parameter of operation.parameters.filter((p) => p.in === "path")) {
    const value: string | undefined = {
      experiment_id: experimentFor(operation, world),
      hypothesis_id: world.hypothesisId,
      run_id: world.runId,
      delivery_id: world.deliveryId,
      dispute_id: world.disputeId,
      operator_id: world.operatorIds.operator,
      account_id: world.accountIds.other,
      api_key_id: world.apiKeyId,
      template_id: world.templateId,
      provider_id: world.providerId,
      submission_id: world.submissionId,
      file_id: world.file.id,
      dead_letter_id: world.deadLetterId,
      file: parameter.schema?.enum?.[0],
    }[parameter.name];
    if (value === undefined)
      throw new Error(`the world has no ${parameter.name} for ${operation.operationId}`);
    params[parameter.name] = encodeURIComponent(value);
  }
  return params;
}

export function queryFor(operation: Operation, world: World): Record<string, string> {
  switch (operation.operationId) {
    case "getResultFile":
      return { expires: world.file.expires, signature: world.file.signature };
    case "listAccountWebhookDeliveries":
      return { account_id: world.accountIds.owner };
    default:
      return {};
  }
}

const MIC_CLOUD_INTAKE = {
  experiment_type: "MIC_MBC_ASSAY",
  hypothesis: { statement: "Compound A inhibits E. coli ATCC 25922 at 8 ug/mL or less." },
  mic_mbc_assay: {
    target_organisms: ["E. coli ATCC 25922"],
    test_compounds: [{ name: "Compound A", concentrations_ug_ml: [64, 32, 16, 8, 4, 2, 1, 0.5] }],
  },
};

/** A valid body for the operations that take one (undefined: let the sampler make one). */
export function validBody(operation: Operation, world: World, webhookUrl: string): unknown {
  const reason = { reason: "Not needed for this conformance run any more." };
  const bodies: Record<string, unknown> = {
    register: {
      email: `conformance+${Date.now()}-${Math.random().toString(36).slice(2)}@example.org`,
      password: "a long enough password",
      name: "Conformance",
    },
    issueToken: { email: "nobody@example.org", password: "a long enough password" },
    createApiKey: { name: "conformance extra" },
    updateAccountAccess: { tier: "pro" },
    updateAccountAccessLegacy: { tier: "pro" },
    createExperiment: micRequest("Conformance: another"),
    updateExperiment: { turnaround_days: 25 },
    cancelExperiment: reason,
    requestProtocolChanges: { comments: "Please add a sterility control to the plate." },
    validateExperiment: micRequest(),
    validateHypothesis: {
      statement: "Ampicillin inhibits growth of E. coli ATCC 25922 at 8 ug/mL or lower",
      null_hypothesis: "The MIC of ampicillin against E. coli ATCC 25922 is above 8 ug/mL",
    },
    estimateExperiment: micRequest(),
    approveReview: { note: "Looks safe." },
    approveReviewLegacy: { note: "Looks safe." },
    rejectReview: reason,
    rejectReviewLegacy: reason,
    proposeProtocol: { protocol: proposedProtocol("1.0"), note: "A standard design." },
    proposeProtocolLegacy: { protocol: proposedProtocol("1.0"), note: "A standard design." },
    approveResults: { rating: 5, feedback: "Clean data." },
    disputeResults: {
      reason: "results_incomplete",
      description: "The MBC readout requested in the protocol is missing from the results.",
    },
    submitOperatorProfile: operatorProfile("conformance resubmitted lab"),
    claimJob: CLAIM,
    reportIssue: { description: "A plate reader calibration check is overdue.", severity: "low" },
    submitResults: resultsBody(),
    verifyOperator: verificationRecord(),
    rejectOperator: reason,
    suspendOperator: reason,
    resolveDispute: { outcome: "requester", note: "The control is missing; the requester is refunded." },
    testWebhook: { url: webhookUrl, event_type: "claimed" },
    hypothesisFromExperiment: { experiment_id: world.experiments.pending },
    createHypothesis: {
      title: "Gentamicin inhibits E. coli",
      statement: "Gentamicin inhibits growth of E. coli ATCC 25922 at 2 ug/mL or lower.",
    },
    updateHypothesis: { title: "Ampicillin inhibits E. coli (renamed)" },
    // The hypothesis has no intake draft: the request's other fields come from here.
    hypothesisToExperiment: { additional_fields: micRequest("Conformance: from a hypothesis") },
    generateHypothesis: { query: "Does ampicillin inhibit E. coli ATCC 25922 at 8 ug/mL or less?" },
    startEngineRun: { query: "Does gentamicin inhibit E. coli ATCC 25922 at 2 ug/mL or less?" },
    editEngineRunDraft: {
      edited_hypothesis: {
        statement: "Ciprofloxacin inhibits E. coli ATCC 25922 at 1 ug/mL or less.",
        null_hypothesis: "No ciprofloxacin concentration up to 1 ug/mL inhibits E. coli ATCC 25922.",
      },
    },
    interpretCloudLabIntake: { intake: MIC_CLOUD_INTAKE },
    translateCloudLabIntake: { intake: MIC_CLOUD_INTAKE, provider_id: world.providerId },
    validateCloudLabIntake: { intake: MIC_CLOUD_INTAKE, provider_id: world.providerId },
    translateExperimentForCloudLab: { provider_id: world.providerId },
  };
  return bodies[operation.operationId];
}
