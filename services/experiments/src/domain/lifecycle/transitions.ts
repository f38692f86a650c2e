/**
 * The experiment lifecycle: every status of docs/api.md ("Experiment status") and the one table
 * of transitions the use cases go through. Pure: no I/O, no clock.
 *
 * docs/api.md fixes open -> claimed -> (in_progress) -> pending_approval -> completed, the
 * disputes and the three cancellations. What it leaves open is decided here (and recorded in
 * docs/decisions.md):
 *
 * - draft -> submit -> open, or pending_review when the request has review reasons.
 * - pending_review -> staff approve -> open; staff reject -> cancelled (full refund).
 * - protocol design (pending_review with the review reason protocol_design_requested): staff
 *   propose a protocol (stays pending_review); the requester accepts it -> open, or asks for
 *   changes (stays pending_review, comments recorded).
 * - PATCH only in draft, pending_review and open (before an operator claims).
 * - DELETE (cancel) from draft, pending_review, open, claimed and in_progress.
 * - claimed -> in_progress is the operator starting the work; results may be submitted from
 *   in_progress and from claimed (submitting implies the work started); a dispute is
 *   accepted from pending_approval and from completed (within the dispute window, see
 *   domain/disputes); staff resolve a dispute.
 */
import {
  EXPERIMENT_ACTIONS,
  EXPERIMENT_STATUSES,
  type ExperimentActionName,
  type ExperimentStatusName,
} from "@petri/contracts/vocabulary";
import { InvalidStateError } from "@petri/service-kit";

/** No transition leaves these. */
export const TERMINAL_STATUSES: readonly ExperimentStatusName[] = ["completed", "resolved", "cancelled"];

export function isExperimentStatus(value: string): value is ExperimentStatusName {
  return (EXPERIMENT_STATUSES as readonly string[]).includes(value);
}

/** Who performs an action (the use case checks the principal; the table documents it). */
export type LifecycleActor = "requester" | "staff" | "operator";

export interface TransitionRule {
  readonly actor: LifecycleActor;
  /** The statuses the action is allowed from (details.allowed_from when refused). */
  readonly from: readonly ExperimentStatusName[];
  /**
   * Where it can lead; "unchanged" for actions that keep the status (PATCH, proposals).
   * With several targets the caller names the one it takes (submit: open or pending_review).
   */
  readonly to: readonly ExperimentStatusName[] | "unchanged";
}

/**
 * The transition table, a rule for each petri.experiments.v1.ExperimentAction; every use case
 * that changes an experiment goes through it.
 */
export const TRANSITIONS: Readonly<Record<ExperimentActionName, TransitionRule>> = {
  submit: { actor: "requester", from: ["draft"], to: ["open", "pending_review"] },
  approve_review: { actor: "staff", from: ["pending_review"], to: ["open"] },
  reject_review: { actor: "staff", from: ["pending_review"], to: ["cancelled"] },
  propose_protocol: { actor: "staff", from: ["pending_review"], to: "unchanged" },
  accept_protocol: { actor: "requester", from: ["pending_review"], to: ["open"] },
  request_protocol_changes: { actor: "requester", from: ["pending_review"], to: "unchanged" },
  update: { actor: "requester", from: ["draft", "pending_review", "open"], to: "unchanged" },
  cancel: {
    actor: "requester",
    from: ["draft", "pending_review", "open", "claimed", "in_progress"],
    to: ["cancelled"],
  },
  claim: { actor: "operator", from: ["open"], to: ["claimed"] },
  start: { actor: "operator", from: ["claimed"], to: ["in_progress"] },
  // From claimed too: submitting results implies the work started (started_at is set then).
  submit_results: { actor: "operator", from: ["claimed", "in_progress"], to: ["pending_approval"] },
  approve_results: { actor: "requester", from: ["pending_approval"], to: ["completed"] },
  dispute: { actor: "requester", from: ["pending_approval", "completed"], to: ["disputed"] },
  resolve_dispute: { actor: "staff", from: ["disputed"], to: ["resolved"] },
};

const VERBS: Record<ExperimentActionName, string> = {
  submit: "submitted",
  approve_review: "approved by review",
  reject_review: "rejected by review",
  propose_protocol: "given a protocol proposal",
  accept_protocol: "opened by accepting a protocol proposal",
  request_protocol_changes: "sent back for protocol changes",
  update: "changed",
  cancel: "cancelled",
  claim: "claimed",
  start: "started",
  submit_results: "given results",
  approve_results: "approved",
  dispute: "disputed",
  resolve_dispute: "resolved",
};

/** True when `action` is allowed from `status` (the status precondition only). */
export function can(action: ExperimentActionName, status: ExperimentStatusName): boolean {
  return TRANSITIONS[action].from.includes(status);
}

const ACTIONS_BY_STATUS: ReadonlyMap<ExperimentStatusName, readonly ExperimentActionName[]> = new Map(
  EXPERIMENT_STATUSES.map((status) => [status, EXPERIMENT_ACTIONS.filter((action) => can(action, status))]),
);

/** The actions allowed from `status` (the status precondition only), in the lifecycle's order. */
export function actionsFrom(status: ExperimentStatusName): readonly ExperimentActionName[] {
  return ACTIONS_BY_STATUS.get(status) ?? [];
}

/** Throws 409 invalid_state with details.status and details.allowed_from unless allowed. */
export function assertCan(action: ExperimentActionName, status: ExperimentStatusName): void {
  const rule = TRANSITIONS[action];
  if (!rule.from.includes(status)) {
    throw new InvalidStateError(
      `an experiment in status ${status} cannot be ${VERBS[action]}`,
      status,
      rule.from,
    );
  }
}

/**
 * The status after `action` from `status`. `target` names the outcome when the rule has
 * several (submit); it must be one of the rule's targets. Throws InvalidStateError when the
 * action is not allowed from `status`.
 */
export function transition(
  action: ExperimentActionName,
  status: ExperimentStatusName,
  target?: ExperimentStatusName,
): ExperimentStatusName {
  assertCan(action, status);
  const rule = TRANSITIONS[action];
  if (rule.to === "unchanged") {
    if (target !== undefined && target !== status)
      throw new Error(`${action} keeps the status; it cannot lead to ${target}`);
    return status;
  }
  if (target === undefined) {
    if (rule.to.length !== 1) throw new Error(`${action} needs a target: one of ${rule.to.join(", ")}`);
    return rule.to[0]!;
  }
  if (!rule.to.includes(target)) throw new Error(`${action} cannot lead to ${target}`);
  return target;
}

/** Where a submitted request goes: staff look first when there is any review reason. */
export function submissionStatus(reviewReasons: readonly string[]): "open" | "pending_review" {
  return reviewReasons.length > 0 ? "pending_review" : "open";
}
