/**
 * Experiments messages -> the public JSON of the marketplace loop: the operator's claim,
 * start, issue and submission answers, the results record, the requester's approval and
 * dispute answers, and the staff view of disputes. Like experiments-json.ts, every function
 * is pure and builds its object in a fixed key order; amounts go through money.ts. The results
 * record and the acceptance evaluation are written from their messages by
 * @petri/contracts/rest-json (or their JSON text passed on, from a service built before them).
 */
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import {
  type AcceptanceEvaluation,
  AcceptanceEvaluationSchema,
  type Dispute,
  type Experiment,
  type OperatorIssue,
  type ResultsRecord,
  ResultsRecordSchema,
} from "@petri/contracts/experiments";
import { ABSENT_AS_NULL } from "@petri/contracts/rest-json";
import { disputeJson, operatorIssueJson, required, statusName } from "./experiments-json.js";
import { typedOrRequiredText, typedOrText } from "./json-text.js";
import { isoOrNull } from "./timestamps.js";

/** The time a transition must have set; its absence is the service's bug, not the caller's. */
function setBy(timestamp: Timestamp | undefined, what: string): string {
  const iso = isoOrNull(timestamp);
  if (iso === null) throw new Error(`the experiments service answered without ${what}`);
  return iso;
}

/** POST /operator/jobs/{id}/claim: {experiment_id, claimed_at, deadline}. */
export function claimAnswerJson(message: Experiment | undefined) {
  const experiment = required(message);
  return {
    experiment_id: experiment.id,
    claimed_at: setBy(experiment.operator?.claimedAt, "claimed_at"),
    deadline: setBy(experiment.operator?.deadline, "a deadline"),
  };
}

/** POST /operator/jobs/{id}/start: {experiment_id, status, started_at}. */
export function startAnswerJson(message: Experiment | undefined) {
  const experiment = required(message);
  return {
    experiment_id: experiment.id,
    status: statusName(experiment.status),
    started_at: setBy(experiment.startedAt, "started_at"),
  };
}

/** POST /operator/jobs/{id}/issues: the reported issue with its experiment. */
export function issueAnswerJson(experimentId: string, issue: OperatorIssue | undefined) {
  if (!issue) throw new Error("the experiments service reported no issue");
  const { issue_id, description, severity } = operatorIssueJson(issue);
  return {
    issue_id,
    experiment_id: experimentId,
    description,
    severity,
    reported_at: setBy(issue.reportedAt, "reported_at"),
  };
}

/** POST /operator/jobs/{id}/submit: {experiment_id, status, submitted_at}. */
export function submissionAnswerJson(message: Experiment | undefined) {
  const experiment = required(message);
  return {
    experiment_id: experiment.id,
    status: statusName(experiment.status),
    submitted_at: setBy(experiment.resultsSubmittedAt, "results_submitted_at"),
  };
}

/** A results record as the service sends it: typed since D342, as JSON text before (and beside). */
export interface ResultsForms {
  readonly results?: ResultsRecord;
  readonly resultsJson: string;
  readonly urlsExpireAt?: Timestamp;
}

/** Whether the service sent a results record in either form. */
export const hasResults = (answer: ResultsForms) => answer.results !== undefined || answer.resultsJson !== "";

/**
 * GET /experiments/{id}/results: the results record (docs/api.md, Results; its file urls are
 * signed), and when those urls stop working.
 */
export function resultsAnswerJson(answer: ResultsForms) {
  const results = typedOrRequiredText(
    ResultsRecordSchema,
    answer.results,
    answer.resultsJson,
    { service: "experiments", what: "a results record" },
    ABSENT_AS_NULL,
  );
  return { ...results, urls_expire_at: isoOrNull(answer.urlsExpireAt) };
}

/** The acceptance evaluation staff see with a dispute: typed since D342, else the JSON text. */
export function evaluationAnswerJson(answer: {
  readonly evaluation?: AcceptanceEvaluation;
  readonly evaluationJson: string;
}) {
  return typedOrText(
    AcceptanceEvaluationSchema,
    answer.evaluation,
    answer.evaluationJson,
    { service: "experiments", what: "an acceptance evaluation" },
    ABSENT_AS_NULL,
  );
}

/** POST /experiments/{id}/approve: {experiment_id, status, payment_released}. */
export function approvalAnswerJson(message: Experiment | undefined, paymentReleased: boolean) {
  const experiment = required(message);
  return {
    experiment_id: experiment.id,
    status: statusName(experiment.status),
    payment_released: paymentReleased,
  };
}

/** POST /experiments/{id}/dispute: {dispute_id, experiment_id, status}. */
export function disputeAnswerJson(message: Experiment | undefined, dispute: Dispute | undefined) {
  const experiment = required(message);
  if (!dispute) throw new Error("the experiments service raised no dispute");
  return { dispute_id: dispute.id, experiment_id: experiment.id, status: statusName(experiment.status) };
}

/** A dispute as staff see it: the requester's view plus who is involved and who resolved it. */
export function staffDisputeJson(dispute: Dispute | undefined) {
  if (!dispute) throw new Error("the experiments service sent no dispute");
  return {
    ...disputeJson(dispute),
    requester_account_id: dispute.requesterAccountId,
    operator_id: dispute.operatorId || null,
    resolved_by: dispute.resolvedBy || null,
  };
}
