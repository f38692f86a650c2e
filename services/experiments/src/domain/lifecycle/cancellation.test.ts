import fc from "fast-check";
import { InvalidStateError } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { EXPERIMENT_STATUSES } from "@petri/contracts/vocabulary";
import {
  CLAIMED_OPERATOR_COMPENSATION_BPS,
  cancellationSettlement,
  claimedCompensationCents,
} from "./cancellation.js";

describe("cancellation settlement", () => {
  it("refunds per status: draft nothing held, open and pending_review in full, claimed 80 %, in_progress none", () => {
    expect(cancellationSettlement("draft", 0)).toEqual({
      refundCents: 0,
      operatorCompensationCents: 0,
      refundStatus: "none",
    });
    expect(cancellationSettlement("pending_review", 45_000)).toEqual({
      refundCents: 45_000,
      operatorCompensationCents: 0,
      refundStatus: "full",
    });
    expect(cancellationSettlement("open", 12_345)).toEqual({
      refundCents: 12_345,
      operatorCompensationCents: 0,
      refundStatus: "full",
    });
    expect(cancellationSettlement("claimed", 10_000)).toEqual({
      refundCents: 8_000,
      operatorCompensationCents: 2_000,
      refundStatus: "partial",
    });
    expect(cancellationSettlement("in_progress", 10_000)).toEqual({
      refundCents: 0,
      operatorCompensationCents: 10_000,
      refundStatus: "none",
    });
  });

  it("compensates the operator 20 % of the hold, rounded half up to the cent", () => {
    expect(CLAIMED_OPERATOR_COMPENSATION_BPS).toBe(2_000);
    expect(claimedCompensationCents(0)).toBe(0);
    expect(claimedCompensationCents(1)).toBe(0); // 0.2 cent
    expect(claimedCompensationCents(3)).toBe(1); // 0.6 cent
    expect(claimedCompensationCents(12_345)).toBe(2_469);
    expect(cancellationSettlement("claimed", 12_345)).toMatchObject({ refundCents: 9_876 });
  });

  it.each(["pending_approval", "completed", "disputed", "resolved", "cancelled"] as const)(
    "refuses %s with 409 invalid_state naming the cancellable statuses",
    (status) => {
      let caught: unknown;
      try {
        cancellationSettlement(status, 100);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(InvalidStateError);
      expect((caught as InvalidStateError).details).toEqual({
        status,
        allowed_from: ["draft", "pending_review", "open", "claimed", "in_progress"],
      });
    },
  );

  it("never creates or loses a cent: refund + compensation = hold, both >= 0", () => {
    const cancellable = EXPERIMENT_STATUSES.filter((s) =>
      ["pending_review", "open", "claimed", "in_progress"].includes(s),
    );
    fc.assert(
      fc.property(fc.constantFrom(...cancellable), fc.integer({ min: 0, max: 1e12 }), (status, hold) => {
        const s = cancellationSettlement(status, hold);
        expect(s.refundCents + s.operatorCompensationCents).toBe(hold);
        expect(s.refundCents).toBeGreaterThanOrEqual(0);
        expect(s.operatorCompensationCents).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it("rejects a hold that is not whole cents", () => {
    expect(() => cancellationSettlement("open", 1.5)).toThrow(RangeError);
    expect(() => cancellationSettlement("open", -1)).toThrow(RangeError);
  });
});
