import { ConflictError, InvalidStateError, NotFoundError } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { EXPERIMENT_STATUSES } from "@petri/contracts/vocabulary";
import { isActiveJobStatus } from "./active-jobs.js";
import {
  DEFAULT_DEADLINE_DAYS,
  assertClaimable,
  assertIsJob,
  claimDeadline,
  claimMayRevealState,
  claimTerms,
} from "./claim.js";
import { refusedFields } from "../../../test/support/validation.js";

const confirmed = {
  equipmentConfirmation: true,
  authorizationConfirmation: true,
  estimatedStartDate: "",
  notes: "",
};

describe("claim terms", () => {
  it("needs both confirmations, and reports every problem at once", () => {
    expect(
      refusedFields(() =>
        claimTerms({
          ...confirmed,
          equipmentConfirmation: false,
          authorizationConfirmation: false,
          notes: "x".repeat(2001),
        }),
      ),
    ).toEqual(["equipment_confirmation", "authorization_confirmation", "notes"]);
    expect(refusedFields(() => claimTerms({ ...confirmed, authorizationConfirmation: false }))).toEqual([
      "authorization_confirmation",
    ]);
  });

  it("takes an optional real calendar date and trimmed notes of at most 2,000 characters", () => {
    expect(claimTerms(confirmed)).toEqual({ estimatedStartDate: null, notes: null });
    expect(claimTerms({ ...confirmed, estimatedStartDate: "2026-12-01", notes: "  ready  " })).toEqual({
      estimatedStartDate: "2026-12-01",
      notes: "ready",
    });
    expect(claimTerms({ ...confirmed, notes: "x".repeat(2000) }).notes).toHaveLength(2000);
    for (const date of ["2026-02-30", "2026-13-01", "01/12/2026", "2026-12-1", "tomorrow"])
      expect(refusedFields(() => claimTerms({ ...confirmed, estimatedStartDate: date }))).toEqual([
        "estimated_start_date",
      ]);
  });
});

describe("claim deadline", () => {
  const claimedAt = new Date("2026-11-21T10:00:00.000Z");

  it("is the end of the hard deadline's day (UTC) when the request has one", () => {
    expect(claimDeadline({ claimedAt, hardDeadline: "2026-12-15", turnaroundDays: 7 }).toISOString()).toBe(
      "2026-12-15T23:59:59.999Z",
    );
  });

  it("is the claim time plus the turnaround days otherwise, else plus the default", () => {
    expect(claimDeadline({ claimedAt, hardDeadline: "", turnaroundDays: 7 }).toISOString()).toBe(
      "2026-11-28T10:00:00.000Z",
    );
    for (const turnaroundDays of [null, 0, -3, 2.5])
      expect(claimDeadline({ claimedAt, hardDeadline: "", turnaroundDays }).getTime()).toBe(
        claimedAt.getTime() + DEFAULT_DEADLINE_DAYS * 86_400_000,
      );
  });
});

describe("claimable experiments", () => {
  const experiment = (status: (typeof EXPERIMENT_STATUSES)[number], operator: string | null = null) => ({
    id: "exp_1",
    status,
    operator_id: operator,
  });
  const seen = { revealState: true };
  const unseen = { revealState: false };

  it("accepts open only", () => {
    expect(() => assertClaimable(experiment("open"), seen)).not.toThrow();
    expect(() => assertClaimable(experiment("open"), unseen)).not.toThrow();
  });

  it("hides drafts and requests in review (404, as an unknown id)", () => {
    for (const status of ["draft", "pending_review"] as const) {
      expect(() => assertIsJob(experiment(status))).toThrow(NotFoundError);
      expect(() => assertClaimable(experiment(status), seen)).toThrow(NotFoundError);
    }
    expect(() => assertIsJob(experiment("claimed", "op_x"))).not.toThrow();
  });

  it("answers 404, not the state, to a caller that may not learn it", () => {
    for (const status of EXPERIMENT_STATUSES.filter((s) => s !== "open")) {
      for (const operator of [null, "op_x"])
        expect(() => assertClaimable(experiment(status, operator), unseen)).toThrow(NotFoundError);
    }
  });

  it("reveals a no-longer-open experiment's state when it is public or the caller can see it", () => {
    const parties = { id: "exp_1", requester_account_id: "usr_req", operator_account_id: "usr_lab1" };
    const operator = (accountId: string) => ({
      accountId,
      role: "operator" as const,
      tier: "standard" as const,
    });
    expect(claimMayRevealState(operator("usr_lab2"), parties, "open")).toBe(true);
    for (const privacy of ["private", "delayed_6mo", "delayed_12mo"]) {
      expect(claimMayRevealState(operator("usr_lab2"), parties, privacy)).toBe(false);
      expect(claimMayRevealState(operator("usr_lab1"), parties, privacy)).toBe(true);
      expect(claimMayRevealState(operator("usr_req"), parties, privacy)).toBe(true);
    }
  });

  it("answers experiment_already_claimed once an operator holds it, whatever came after", () => {
    for (const status of [
      "claimed",
      "in_progress",
      "pending_approval",
      "completed",
      "disputed",
      "resolved",
      "cancelled",
    ] as const) {
      try {
        assertClaimable(experiment(status, "op_x"), seen);
        throw new Error("expected a refusal");
      } catch (error) {
        expect(error).toBeInstanceOf(ConflictError);
        expect((error as ConflictError).code).toBe("experiment_already_claimed");
        expect((error as ConflictError).details).toEqual({ status, allowed_from: ["open"] });
      }
    }
  });

  it("refuses an experiment cancelled before any claim as invalid_state", () => {
    expect(() => assertClaimable(experiment("cancelled"), seen)).toThrow(InvalidStateError);
  });

  it("counts claimed and in_progress as an operator's active jobs", () => {
    expect(EXPERIMENT_STATUSES.filter(isActiveJobStatus)).toEqual(["claimed", "in_progress"]);
  });
});
