import { describe, expect, it } from "vitest";
import { REQUESTER_FUNDS, REQUESTER_REFUND, escrowAccount, operatorPayableAccount } from "./accounts.js";
import {
  type Posting,
  assertValidPosting,
  canOverdraw,
  compensationPosting,
  disputeResolutionPosting,
  holdAdjustmentPosting,
  holdAdjustmentVersion,
  holdPosting,
  postingImbalance,
  postingTotal,
  refundPosting,
  releasePosting,
  samePosting,
} from "./postings.js";
import { ledgerErrorCode } from "../../../test/support/ledger-checks.js";

const EXP = "exp_1";
const OP = "op_1";

describe("postings", () => {
  it("each builder balances and moves the named accounts", () => {
    const cases: [Posting, Record<string, number>][] = [
      [holdPosting(EXP, 10_000), { [REQUESTER_FUNDS]: -10_000, [escrowAccount(EXP)]: 10_000 }],
      [
        releasePosting(EXP, OP, 10_000),
        { [escrowAccount(EXP)]: -10_000, [operatorPayableAccount(OP)]: 10_000 },
      ],
      [refundPosting(EXP, 2_500), { [escrowAccount(EXP)]: -2_500, [REQUESTER_REFUND]: 2_500 }],
      [compensationPosting(EXP, OP, 1), { [escrowAccount(EXP)]: -1, [operatorPayableAccount(OP)]: 1 }],
      [
        disputeResolutionPosting(EXP, OP, { requesterCents: 3, operatorCents: 7 }, "escrow"),
        { [escrowAccount(EXP)]: -10, [REQUESTER_REFUND]: 3, [operatorPayableAccount(OP)]: 7 },
      ],
      [
        disputeResolutionPosting(EXP, OP, { requesterCents: 4, operatorCents: 6 }, "operator_payable"),
        { [operatorPayableAccount(OP)]: -4, [REQUESTER_REFUND]: 4 },
      ],
    ];
    for (const [posting, expected] of cases) {
      expect(postingImbalance(posting.entries)).toBe(0);
      expect(Object.fromEntries(posting.entries.map((e) => [e.account, e.amountCents]))).toEqual(expected);
    }
    expect(
      postingTotal(disputeResolutionPosting(EXP, OP, { requesterCents: 3, operatorCents: 7 }, "escrow")),
    ).toBe(10);
  });

  it("a one-sided dispute split omits the empty leg", () => {
    const all = disputeResolutionPosting(EXP, OP, { requesterCents: 0, operatorCents: 9 }, "escrow");
    expect(all.entries).toHaveLength(2);
  });

  it("refuses non-integer, zero, negative and unsafe amounts", () => {
    expect(ledgerErrorCode(() => holdPosting(EXP, 0))).toBe("invalid_amount");
    expect(ledgerErrorCode(() => holdPosting(EXP, -5))).toBe("invalid_amount");
    expect(ledgerErrorCode(() => holdPosting(EXP, 10.5))).toBe("invalid_amount");
    expect(ledgerErrorCode(() => refundPosting(EXP, Number.MAX_SAFE_INTEGER + 1))).toBe("invalid_amount");
    expect(
      ledgerErrorCode(() =>
        disputeResolutionPosting(EXP, OP, { requesterCents: 0, operatorCents: 0 }, "escrow"),
      ),
    ).toBe("invalid_amount");
  });

  it("refuses unbalanced and malformed postings", () => {
    const escrow = escrowAccount(EXP);
    expect(
      ledgerErrorCode(() =>
        assertValidPosting({
          experimentId: EXP,
          kind: "refund",
          entries: [
            { account: escrow, amountCents: -10 },
            { account: REQUESTER_REFUND, amountCents: 9 },
          ],
        }),
      ),
    ).toBe("unbalanced_posting");
    expect(
      ledgerErrorCode(() =>
        assertValidPosting({
          experimentId: EXP,
          kind: "refund",
          entries: [{ account: escrow, amountCents: 1 }],
        }),
      ),
    ).toBe("invalid_posting");
    expect(
      ledgerErrorCode(() =>
        assertValidPosting({
          experimentId: EXP,
          kind: "refund",
          entries: [
            { account: escrowAccount("exp_other"), amountCents: -1 },
            { account: REQUESTER_REFUND, amountCents: 1 },
          ],
        }),
      ),
    ).toBe("invalid_posting");
    expect(
      ledgerErrorCode(() =>
        assertValidPosting({
          experimentId: EXP,
          kind: "release",
          entries: [
            { account: REQUESTER_FUNDS, amountCents: -1 },
            { account: operatorPayableAccount(OP), amountCents: 1 },
          ],
        }),
      ),
    ).toBe("invalid_posting");
    expect(() => escrowAccount("a:b")).toThrow(RangeError);
  });

  it("hold adjustments move requester funds both ways and carry the version as their key", () => {
    expect(holdAdjustmentPosting(EXP, 3, 250)).toEqual({
      experimentId: EXP,
      kind: "hold_adjustment",
      key: "v3",
      entries: [
        { account: REQUESTER_FUNDS, amountCents: -250 },
        { account: escrowAccount(EXP), amountCents: 250 },
      ],
    });
    expect(holdAdjustmentPosting(EXP, 4, -100).entries).toEqual([
      { account: escrowAccount(EXP), amountCents: -100 },
      { account: REQUESTER_FUNDS, amountCents: 100 },
    ]);
    expect(holdAdjustmentVersion("v12")).toBe(12);
    expect(holdAdjustmentVersion("12")).toBeUndefined();
    expect(ledgerErrorCode(() => holdAdjustmentPosting(EXP, 3, 0))).toBe("invalid_amount");
    expect(ledgerErrorCode(() => holdAdjustmentPosting(EXP, 0, 10))).toBe("invalid_posting");
    const { key: _key, ...unkeyed } = holdAdjustmentPosting(EXP, 3, 250);
    expect(ledgerErrorCode(() => assertValidPosting(unkeyed))).toBe("invalid_posting");
    expect(ledgerErrorCode(() => assertValidPosting({ ...holdPosting(EXP, 1), key: "v1" }))).toBe(
      "invalid_posting",
    );
    expect(samePosting(holdAdjustmentPosting(EXP, 3, 250), holdAdjustmentPosting(EXP, 4, 250))).toBe(false);
  });

  it("compares postings independently of entry order", () => {
    const a = releasePosting(EXP, OP, 100);
    expect(samePosting(a, { ...a, entries: [...a.entries].reverse() })).toBe(true);
    expect(samePosting(a, releasePosting(EXP, OP, 101))).toBe(false);
    expect(samePosting(a, releasePosting(EXP, "op_2", 100))).toBe(false);
  });
});

describe("canOverdraw", () => {
  it("is false for a posting that only adds to balances other than the requester's funds (a hold)", () => {
    expect(canOverdraw(holdPosting(EXP, 1_000))).toBe(false);
  });
  it("is true for one that takes from escrow or an operator's payable", () => {
    expect(canOverdraw(releasePosting(EXP, OP, 1_000))).toBe(true);
    expect(canOverdraw(refundPosting(EXP, 1_000))).toBe(true);
  });
});
