import { InvalidStateError } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import {
  EXPERIMENT_STATUSES,
  type ExperimentActionName,
  type ExperimentStatusName,
} from "@petri/contracts/vocabulary";
import {
  TERMINAL_STATUSES,
  TRANSITIONS,
  actionsFrom,
  assertCan,
  can,
  submissionStatus,
  transition,
} from "./transitions.js";

/**
 * The expected lifecycle, written out independently of TRANSITIONS: for each action, every
 * status it is allowed from and where it leads ("=" keeps the status). Any change to the
 * table must change this too.
 */
const EXPECTED: Record<
  ExperimentActionName,
  Partial<Record<ExperimentStatusName, ExperimentStatusName | "=" | "open|pending_review">>
> = {
  submit: { draft: "open|pending_review" },
  approve_review: { pending_review: "open" },
  reject_review: { pending_review: "cancelled" },
  propose_protocol: { pending_review: "=" },
  accept_protocol: { pending_review: "open" },
  request_protocol_changes: { pending_review: "=" },
  update: { draft: "=", pending_review: "=", open: "=" },
  cancel: {
    draft: "cancelled",
    pending_review: "cancelled",
    open: "cancelled",
    claimed: "cancelled",
    in_progress: "cancelled",
  },
  claim: { open: "claimed" },
  start: { claimed: "in_progress" },
  submit_results: { claimed: "pending_approval", in_progress: "pending_approval" },
  approve_results: { pending_approval: "completed" },
  dispute: { pending_approval: "disputed", completed: "disputed" },
  resolve_dispute: { disputed: "resolved" },
};

const ACTIONS = Object.keys(EXPECTED) as ExperimentActionName[];

function error(fn: () => unknown): InvalidStateError {
  try {
    fn();
  } catch (caught) {
    if (caught instanceof InvalidStateError) return caught;
    throw caught;
  }
  throw new Error("expected an InvalidStateError");
}

describe("experiment lifecycle", () => {
  it("has every docs/api.md status, and the table names every action", () => {
    expect([...EXPERIMENT_STATUSES].sort()).toEqual(
      [
        "draft",
        "pending_review",
        "open",
        "claimed",
        "in_progress",
        "pending_approval",
        "completed",
        "disputed",
        "resolved",
        "cancelled",
      ].sort(),
    );
    expect(Object.keys(TRANSITIONS).sort()).toEqual([...ACTIONS].sort());
  });

  const cases = ACTIONS.flatMap((action) => EXPERIMENT_STATUSES.map((status) => [action, status] as const));

  it.each(cases)(
    "%s from %s: allowed exactly as the lifecycle says, with the right target",
    (action, status) => {
      const expected = EXPECTED[action][status];
      expect(can(action, status)).toBe(expected !== undefined);
      if (expected === undefined) {
        const refused = error(() => transition(action, status));
        expect(refused.kind).toBe("invalid_state");
        expect(refused.details).toEqual({ status, allowed_from: [...TRANSITIONS[action].from] });
        expect(error(() => assertCan(action, status)).details.status).toBe(status);
        return;
      }
      expect(() => assertCan(action, status)).not.toThrow();
      if (expected === "=") expect(transition(action, status)).toBe(status);
      else if (expected === "open|pending_review") {
        expect(transition(action, status, "open")).toBe("open");
        expect(transition(action, status, "pending_review")).toBe("pending_review");
        expect(() => transition(action, status)).toThrow(/needs a target/);
        expect(() => transition(action, status, "claimed")).toThrow(/cannot lead to claimed/);
      } else {
        expect(transition(action, status)).toBe(expected);
        expect(transition(action, status, expected)).toBe(expected);
      }
    },
  );

  it("leaves no way out of a terminal status", () => {
    expect([...TERMINAL_STATUSES].sort()).toEqual(["cancelled", "completed", "resolved"]);
    for (const status of TERMINAL_STATUSES) {
      const from = ACTIONS.filter((action) => can(action, status));
      // A completed experiment can still be disputed (docs/api.md: pending_approval or completed).
      expect(from).toEqual(status === "completed" ? ["dispute"] : []);
    }
  });

  it("allows PATCH only before a claim and names the allowed statuses when refusing", () => {
    for (const status of ["claimed", "in_progress", "pending_approval", "completed", "cancelled"] as const) {
      const refused = error(() => transition("update", status));
      expect(refused.message).toBe(`an experiment in status ${status} cannot be changed`);
      expect(refused.details).toEqual({ status, allowed_from: ["draft", "pending_review", "open"] });
    }
  });

  it("a keep-status action cannot be given another target", () => {
    expect(() => transition("update", "open", "claimed")).toThrow(/keeps the status/);
  });

  it("submits to pending_review exactly when there is a review reason", () => {
    expect(submissionStatus([])).toBe("open");
    expect(submissionStatus(["custom_protocol"])).toBe("pending_review");
    expect(submissionStatus(["protocol_design_requested", "flagged_hazard"])).toBe("pending_review");
  });
});

describe("actionsFrom", () => {
  it("lists what the table allows from each status, in the lifecycle's order", () => {
    expect(actionsFrom("pending_approval")).toEqual(["approve_results", "dispute"]);
    expect(actionsFrom("completed")).toEqual(["dispute"]);
    expect(actionsFrom("open")).toEqual(["update", "cancel", "claim"]);
    expect(actionsFrom("resolved")).toEqual([]);
    for (const status of EXPERIMENT_STATUSES)
      for (const action of actionsFrom(status)) expect(can(action, status)).toBe(true);
  });

  it("has every action of the contract somewhere", () => {
    const allowed = new Set(EXPERIMENT_STATUSES.flatMap((status) => actionsFrom(status)));
    expect([...allowed].sort()).toEqual(Object.keys(TRANSITIONS).sort());
  });
});
