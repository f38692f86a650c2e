import type { DescMessage } from "@bufbuild/protobuf";
import {
  DisputeResolvedSchema,
  ExperimentCancelledSchema,
  ExperimentClaimedSchema,
  ExperimentDisputedSchema,
  ExperimentDraftedSchema,
  ExperimentOpenedSchema,
  ExperimentStartedSchema,
  ExperimentSubmittedSchema,
  ExperimentUpdatedSchema,
  IssueReportedSchema,
  ProtocolProposedSchema,
  ResultsApprovedSchema,
  ResultsSubmittedSchema,
} from "./experiments.js";
import { SubmissionStatusChangedSchema } from "./cloudlabs.js";
import { HypothesisSavedSchema } from "./hypotheses.js";
import {
  AccessTokenRevokedSchema,
  AccountAccessChangedSchema,
  AccountRegisteredSchema,
  ApiKeyRevokedSchema,
  CredentialsRevokedSchema,
} from "./identity.js";
import { OperatorEligibilityChangedSchema, PaymentUpdatedSchema } from "./marketplace.js";

export * from "./streams.js";

/**
 * The catalogue of published events: subject -> payload schema and publishing service.
 * Consumers decode with it; the relay and tests check that a subject is known.
 */
export interface EventSpec<Desc extends DescMessage = DescMessage> {
  readonly subject: string;
  readonly source: ServiceName;
  readonly schema: Desc;
}

export type ServiceName =
  "identity" | "experiments" | "marketplace" | "hypotheses" | "engine" | "cloudlabs" | "notifications";

function event<Desc extends DescMessage>(source: ServiceName, name: string, schema: Desc): EventSpec<Desc> {
  return { subject: `petri.${source}.${name}`, source, schema };
}

export const events = {
  identity: {
    accountRegistered: event("identity", "account_registered", AccountRegisteredSchema),
    accountAccessChanged: event("identity", "account_access_changed", AccountAccessChangedSchema),
    credentialsRevoked: event("identity", "credentials_revoked", CredentialsRevokedSchema),
    accessTokenRevoked: event("identity", "access_token_revoked", AccessTokenRevokedSchema),
    apiKeyRevoked: event("identity", "api_key_revoked", ApiKeyRevokedSchema),
  },
  experiments: {
    experimentDrafted: event("experiments", "experiment_drafted", ExperimentDraftedSchema),
    experimentSubmitted: event("experiments", "experiment_submitted", ExperimentSubmittedSchema),
    experimentOpened: event("experiments", "experiment_opened", ExperimentOpenedSchema),
    experimentUpdated: event("experiments", "experiment_updated", ExperimentUpdatedSchema),
    experimentCancelled: event("experiments", "experiment_cancelled", ExperimentCancelledSchema),
    protocolProposed: event("experiments", "protocol_proposed", ProtocolProposedSchema),
    experimentClaimed: event("experiments", "experiment_claimed", ExperimentClaimedSchema),
    experimentStarted: event("experiments", "experiment_started", ExperimentStartedSchema),
    issueReported: event("experiments", "issue_reported", IssueReportedSchema),
    resultsSubmitted: event("experiments", "results_submitted", ResultsSubmittedSchema),
    resultsApproved: event("experiments", "results_approved", ResultsApprovedSchema),
    experimentDisputed: event("experiments", "experiment_disputed", ExperimentDisputedSchema),
    disputeResolved: event("experiments", "dispute_resolved", DisputeResolvedSchema),
  },
  marketplace: {
    operatorEligibilityChanged: event(
      "marketplace",
      "operator_eligibility_changed",
      OperatorEligibilityChangedSchema,
    ),
    paymentUpdated: event("marketplace", "payment_updated", PaymentUpdatedSchema),
  },
  hypotheses: {
    hypothesisSaved: event("hypotheses", "hypothesis_saved", HypothesisSavedSchema),
  },
  cloudlabs: {
    submissionStatusChanged: event("cloudlabs", "submission_status_changed", SubmissionStatusChangedSchema),
  },
} as const;

export const eventsByType: ReadonlyMap<string, EventSpec> = new Map(
  Object.values(events)
    .flatMap((byName) => Object.values(byName) as EventSpec[])
    .map((spec) => [spec.schema.typeName, spec]),
);
export * from "./rate-limits.js";
export * from "./operator-eligibility.js";
export * from "./experiment-events.js";
export * from "./protocol-proposal.js";
