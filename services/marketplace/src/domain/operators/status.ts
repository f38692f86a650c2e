/**
 * Operator status: a pure state machine.
 *
 *   onboarding --submit--> pending_verification --verify--> active
 *                               |        ^                  |  ^
 *                            reject   submit (resubmission) pause resume
 *                               v        |                  v  |
 *                              rejected--+                  paused
 *   active | paused --suspend(reason)--> suspended --reinstate--> active
 *
 * Decisions:
 * - "verified" and "active" are one status, `active` (docs/intake-model.md lists onboarding / active /
 *   paused / suspended); verification is the record that staff attach on `verify`.
 * - `verify` needs a complete verification record (identity, institution, supervisor, at least
 *   one competency); `reject` and `suspend` need a non-empty reason, kept on the state until the
 *   next transition.
 * - A rejected operator resubmits (`submit`, usually after editing the profile) and goes back to
 *   pending_verification. A suspended operator is reinstated only by staff. No transition leaves
 *   a status to itself; anything not drawn above is `invalid_transition`.
 * - Only `active` operators see or claim jobs (./qualification.ts).
 */
import type { OperatorStatusName } from "@petri/contracts/vocabulary";
import { isVerificationComplete, verificationGaps, type VerificationRecord } from "./verification.js";

export type OperatorEvent =
  | { type: "submit" }
  | { type: "verify"; verification: VerificationRecord }
  | { type: "reject"; reason: string }
  | { type: "pause" }
  | { type: "resume" }
  | { type: "suspend"; reason: string }
  | { type: "reinstate" };
export type OperatorEventType = OperatorEvent["type"];

export interface OperatorState {
  status: OperatorStatusName;
  /** Reason of the last rejection or suspension while the operator is in that status. */
  reason?: string;
  /** ISO timestamp of the last transition. */
  changed_at: string;
}

export type TransitionResult =
  | { ok: true; state: OperatorState }
  | { ok: false; error: { code: "invalid_transition" | "invalid_value"; message: string } };

/** The transition table: event -> (from status -> to status). */
export const TRANSITIONS: Readonly<
  Record<OperatorEventType, Partial<Record<OperatorStatusName, OperatorStatusName>>>
> = {
  submit: { onboarding: "pending_verification", rejected: "pending_verification" },
  verify: { pending_verification: "active" },
  reject: { pending_verification: "rejected" },
  pause: { active: "paused" },
  resume: { paused: "active" },
  suspend: { active: "suspended", paused: "suspended" },
  reinstate: { suspended: "active" },
};

export function initialOperatorState(now: Date): OperatorState {
  return { status: "onboarding", changed_at: now.toISOString() };
}

/** Events allowed from `status` (ignoring guards such as a complete verification record). */
export function allowedEvents(status: OperatorStatusName): OperatorEventType[] {
  return (Object.keys(TRANSITIONS) as OperatorEventType[]).filter(
    (e) => TRANSITIONS[e][status] !== undefined,
  );
}

export function canTransition(status: OperatorStatusName, event: OperatorEventType): boolean {
  return TRANSITIONS[event][status] !== undefined;
}

export function transitionOperator(state: OperatorState, event: OperatorEvent, now: Date): TransitionResult {
  const to = TRANSITIONS[event.type][state.status];
  if (to === undefined) {
    return {
      ok: false,
      error: {
        code: "invalid_transition",
        message: `cannot ${event.type} an operator whose status is ${state.status}`,
      },
    };
  }
  let reason: string | undefined;
  if (event.type === "reject" || event.type === "suspend") {
    reason = event.reason.trim();
    if (reason === "") {
      return { ok: false, error: { code: "invalid_value", message: `reason is required to ${event.type}` } };
    }
  }
  if (event.type === "verify" && !isVerificationComplete(event.verification)) {
    return {
      ok: false,
      error: {
        code: "invalid_value",
        message: `verification is incomplete: ${verificationGaps(event.verification).join("; ")}`,
      },
    };
  }
  const next: OperatorState = { status: to, changed_at: now.toISOString() };
  if (reason !== undefined) next.reason = reason;
  return { ok: true, state: next };
}
