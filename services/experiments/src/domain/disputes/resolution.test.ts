import { ValidationError } from "@petri/service-kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { disputeResolution } from "./resolution.js";
import { refusedFields } from "../../../test/support/validation.js";

const base = { amountAtStakeCents: 30_000, requesterCents: 0, operatorCents: 0, note: "" };

describe("dispute resolution", () => {
  it("gives everything to one side for outcome requester or operator", () => {
    expect(disputeResolution({ ...base, outcome: "requester" })).toEqual({
      outcome: "requester",
      requesterCents: 30_000,
      operatorCents: 0,
      note: null,
    });
    expect(disputeResolution({ ...base, outcome: "operator", note: "  work met the criteria " })).toEqual({
      outcome: "operator",
      requesterCents: 0,
      operatorCents: 30_000,
      note: "work met the criteria",
    });
    // The amounts may also be stated, as long as they say the same.
    expect(disputeResolution({ ...base, outcome: "requester", requesterCents: 30_000 }).requesterCents).toBe(
      30_000,
    );
    expect(
      refusedFields(() => disputeResolution({ ...base, outcome: "requester", requesterCents: 100 })),
    ).toEqual(["requester_amount_cents"]);
  });

  it("accepts a split exactly when both amounts are >= 0 and add up to the amount at stake", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 0, max: 1_000_000 }), (a, b) => {
        const stake = 500_000;
        const attempt = () =>
          disputeResolution({
            ...base,
            amountAtStakeCents: stake,
            outcome: "split",
            requesterCents: a,
            operatorCents: b,
          });
        if (a + b === stake) expect(attempt()).toMatchObject({ requesterCents: a, operatorCents: b });
        else expect(attempt).toThrow(ValidationError);
      }),
    );
    expect(
      disputeResolution({ ...base, outcome: "split", requesterCents: 12_345, operatorCents: 17_655 }),
    ).toMatchObject({ requesterCents: 12_345, operatorCents: 17_655 });
    expect(
      refusedFields(() =>
        disputeResolution({ ...base, outcome: "split", requesterCents: -1, operatorCents: 30_001 }),
      ),
    ).toEqual(["requester_amount_cents"]);
  });

  it("refuses an unknown outcome and a note over 5,000 characters", () => {
    expect(refusedFields(() => disputeResolution({ ...base, outcome: "both" }))).toEqual(["outcome"]);
    expect(refusedFields(() => disputeResolution({ ...base, outcome: "" }))).toEqual(["outcome"]);
    expect(
      refusedFields(() => disputeResolution({ ...base, outcome: "operator", note: "x".repeat(5001) })),
    ).toEqual(["note"]);
  });
});
