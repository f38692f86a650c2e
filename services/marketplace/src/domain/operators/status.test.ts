import { describe, expect, it } from "vitest";

import { OPERATOR_STATUSES, type OperatorStatusName } from "@petri/contracts/vocabulary";
import {
  allowedEvents,
  initialOperatorState,
  transitionOperator,
  type OperatorEvent,
  type OperatorEventType,
} from "./status.js";
import { NOW, verification } from "../../../test/support/operators.js";
import type { VerificationRecord } from "./verification.js";

const EVENTS: Record<OperatorEventType, OperatorEvent> = {
  submit: { type: "submit" },
  verify: { type: "verify", verification: verification() },
  reject: { type: "reject", reason: "supervisor letter missing" },
  pause: { type: "pause" },
  resume: { type: "resume" },
  suspend: { type: "suspend", reason: "repeated disputes" },
  reinstate: { type: "reinstate" },
};

const ALLOWED: Record<string, OperatorStatusName> = {
  "onboarding:submit": "pending_verification",
  "rejected:submit": "pending_verification",
  "pending_verification:verify": "active",
  "pending_verification:reject": "rejected",
  "active:pause": "paused",
  "paused:resume": "active",
  "active:suspend": "suspended",
  "paused:suspend": "suspended",
  "suspended:reinstate": "active",
};

const state = (status: OperatorStatusName) => ({ status, changed_at: "2026-01-01T00:00:00.000Z" });

describe("operator status machine", () => {
  it("starts in onboarding", () => {
    expect(initialOperatorState(NOW)).toEqual({ status: "onboarding", changed_at: NOW.toISOString() });
  });

  for (const from of OPERATOR_STATUSES) {
    for (const event of Object.keys(EVENTS) as OperatorEventType[]) {
      const to = ALLOWED[`${from}:${event}`];
      it(`${from} --${event}--> ${to ?? "forbidden"}`, () => {
        const r = transitionOperator(state(from), EVENTS[event], NOW);
        if (to === undefined) {
          expect(r).toEqual({ ok: false, error: expect.objectContaining({ code: "invalid_transition" }) });
          expect(allowedEvents(from)).not.toContain(event);
        } else {
          expect(r.ok && r.state.status).toBe(to);
          expect(r.ok && r.state.changed_at).toBe(NOW.toISOString());
          expect(allowedEvents(from)).toContain(event);
        }
      });
    }
  }

  it("keeps the rejection and suspension reason, and clears it on the next transition", () => {
    const rejected = transitionOperator(state("pending_verification"), EVENTS.reject, NOW);
    expect(rejected.ok && rejected.state.reason).toBe("supervisor letter missing");
    if (!rejected.ok) return;
    const resubmitted = transitionOperator(rejected.state, EVENTS.submit, NOW);
    expect(resubmitted.ok && resubmitted.state).toEqual({
      status: "pending_verification",
      changed_at: NOW.toISOString(),
    });
    const suspended = transitionOperator(state("active"), EVENTS.suspend, NOW);
    expect(suspended.ok && suspended.state.reason).toBe("repeated disputes");
  });

  it.each(["reject", "suspend"] as const)("%s needs a non-blank reason", (type) => {
    const from = type === "reject" ? "pending_verification" : "active";
    expect(transitionOperator(state(from), { type, reason: "   " }, NOW)).toEqual({
      ok: false,
      error: expect.objectContaining({ code: "invalid_value" }),
    });
  });

  it.each([
    ["identity_verified", { identity_verified: false }],
    ["institution_verified", { institution_verified: false }],
    ["supervisor_approved", { supervisor_approved: false }],
    ["competencies_verified", { competencies_verified: [] }],
  ] satisfies [string, Partial<VerificationRecord>][])(
    "verify is refused while %s is missing",
    (_name, override) => {
      const r = transitionOperator(
        state("pending_verification"),
        { type: "verify", verification: verification(override) },
        NOW,
      );
      expect(r).toEqual({ ok: false, error: expect.objectContaining({ code: "invalid_value" }) });
    },
  );
});
