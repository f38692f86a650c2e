import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { REQUESTER_REFUND, escrowAccount, operatorPayableAccount } from "./accounts.js";
import { LedgerError } from "./errors.js";
import {
  type ExperimentLedger,
  accountBalances,
  applyPosting,
  applyPostings,
  conservationViolations,
  emptyLedger,
  paymentStateOf,
  paymentStatusOf,
  summarize,
} from "./experiment-ledger.js";
import {
  type CancellableStatus,
  claimedCompensationCents,
  postingsForApproval,
  postingsForCancellation,
  postingsForCancellationAmounts,
  postingsForDisputeResolution,
  postingsForHoldChange,
  postingsForOpened,
} from "./event-postings.js";
import { REQUESTER_FUNDS } from "./accounts.js";
import { holdAdjustmentPosting, holdPosting, refundPosting, releasePosting } from "./postings.js";
import { ledgerErrorCode } from "../../../test/support/ledger-checks.js";

const EXP = "exp_1";
const OP = "op_1";

function opened(cents: number): ExperimentLedger {
  return applyPostings(emptyLedger(EXP), postingsForOpened(EXP, cents));
}

describe("business events", () => {
  it("open -> approve releases the whole hold to the operator", () => {
    const ledger = applyPostings(opened(12_345), postingsForApproval(opened(12_345), OP));
    const balances = accountBalances(ledger.postings);
    expect(balances.get(escrowAccount(EXP))).toBe(0);
    expect(balances.get(operatorPayableAccount(OP))).toBe(12_345);
    expect(paymentStateOf(ledger)).toBe("released");
    expect(conservationViolations(EXP, ledger.postings)).toEqual([]);
  });

  it("cancellation follows D25 for every cancellable status", () => {
    const hold = 10_001;
    const expected: Record<CancellableStatus, [number, number, string]> = {
      draft: [0, 0, "none"],
      pending_review: [hold, 0, "full"],
      open: [hold, 0, "full"],
      claimed: [hold - 2_000, 2_000, "partial"],
      in_progress: [0, hold, "none"],
    };
    for (const [status, [refund, compensation, refundStatus]] of Object.entries(expected)) {
      const start = status === "draft" ? emptyLedger(EXP) : opened(hold);
      const result = postingsForCancellation(start, status as CancellableStatus, OP);
      expect({ status, refund: result.refundCents, compensation: result.compensationCents }).toEqual({
        status,
        refund,
        compensation,
      });
      expect(result.refundStatus).toBe(refundStatus);
      const ledger = applyPostings(start, result.postings);
      const s = summarize(EXP, ledger.postings);
      expect(s.refundedCents).toBe(refund);
      expect(s.compensatedCents).toBe(compensation);
      expect(s.stillHeldCents).toBe(0);
      expect(conservationViolations(EXP, ledger.postings)).toEqual([]);
    }
  });

  it("claimed compensation is 20 % rounded half up, and refund + compensation = hold", () => {
    expect(claimedCompensationCents(10_000)).toBe(2_000);
    expect(claimedCompensationCents(3)).toBe(1); // 0.6 -> 1
    expect(claimedCompensationCents(2)).toBe(0); // 0.4 -> 0
    expect(claimedCompensationCents(5)).toBe(1); // 1.0
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000_00 }), (hold) => {
        const r = postingsForCancellation(opened(hold), "claimed", OP);
        expect(r.refundCents + r.compensationCents).toBe(hold);
      }),
    );
  });

  it("a replayed event yields the same postings and moves nothing", () => {
    const held = opened(5_000);
    const approved = applyPostings(held, postingsForApproval(held, OP));
    const replay = postingsForApproval(approved, OP);
    expect(replay).toHaveLength(1);
    const again = applyPosting(approved, replay[0]!);
    expect(again.applied).toBe(false);
    expect(applyPosting(approved, holdPosting(EXP, 5_000)).applied).toBe(false);

    const cancelled = postingsForCancellation(held, "claimed", OP);
    const after = applyPostings(held, cancelled.postings);
    expect(postingsForCancellation(after, "claimed", OP).postings).toEqual(cancelled.postings);
    expect(applyPostings(after, cancelled.postings)).toBe(after);
  });

  it("a different posting of a recorded kind is a conflicting replay", () => {
    expect(ledgerErrorCode(() => applyPosting(opened(5_000), holdPosting(EXP, 5_001)))).toBe(
      "conflicting_replay",
    );
    const cancelled = applyPostings(opened(5_000), postingsForCancellation(opened(5_000), "open").postings);
    expect(
      ledgerErrorCode(() =>
        applyPostings(cancelled, postingsForCancellation(cancelled, "claimed", OP).postings),
      ),
    ).toBe("conflicting_replay");
  });

  it("escrow never goes negative and nothing moves before a hold", () => {
    expect(ledgerErrorCode(() => applyPosting(opened(100), releasePosting(EXP, OP, 101)))).toBe(
      "escrow_overdrawn",
    );
    const released = applyPostings(opened(100), postingsForApproval(opened(100), OP));
    expect(ledgerErrorCode(() => applyPosting(released, refundPosting(EXP, 1)))).toBe("escrow_overdrawn");
    expect(ledgerErrorCode(() => applyPosting(emptyLedger(EXP), refundPosting(EXP, 1)))).toBe("no_hold");
    expect(ledgerErrorCode(() => postingsForApproval(emptyLedger(EXP), OP))).toBe("no_hold");
    expect(ledgerErrorCode(() => applyPosting(emptyLedger("exp_2"), holdPosting(EXP, 1)))).toBe(
      "invalid_posting",
    );
  });

  it("dispute outcomes split the escrow, or claw back after a release", () => {
    const held = opened(10_000);
    const forRequester = applyPostings(
      held,
      postingsForDisputeResolution(held, OP, { outcome: "requester" }),
    );
    expect(accountBalances(forRequester.postings).get(REQUESTER_REFUND)).toBe(10_000);
    const forOperator = applyPostings(held, postingsForDisputeResolution(held, OP, { outcome: "operator" }));
    expect(accountBalances(forOperator.postings).get(operatorPayableAccount(OP))).toBe(10_000);
    const split = applyPostings(
      held,
      postingsForDisputeResolution(held, OP, {
        outcome: "split",
        requesterCents: 3_333,
        operatorCents: 6_667,
      }),
    );
    expect(summarize(EXP, split.postings)).toMatchObject({
      disputeToRequesterCents: 3_333,
      disputeToOperatorCents: 6_667,
      stillHeldCents: 0,
    });
    expect(paymentStateOf(split)).toBe("dispute_resolved");
    expect(
      ledgerErrorCode(() =>
        postingsForDisputeResolution(held, OP, { outcome: "split", requesterCents: 1, operatorCents: 1 }),
      ),
    ).toBe("invalid_split");

    const released = applyPostings(held, postingsForApproval(held, OP));
    const clawed = applyPostings(
      released,
      postingsForDisputeResolution(released, OP, {
        outcome: "split",
        requesterCents: 4_000,
        operatorCents: 6_000,
      }),
    );
    expect(summarize(EXP, clawed.postings)).toMatchObject({
      clawedBackCents: 4_000,
      returnedToRequesterCents: 4_000,
      paidToOperatorCents: 6_000,
    });
    expect(postingsForDisputeResolution(released, OP, { outcome: "operator" })).toEqual([]);
    for (const ledger of [forRequester, forOperator, split, clawed]) {
      expect(conservationViolations(EXP, ledger.postings)).toEqual([]);
    }
  });

  it("payment states", () => {
    expect(paymentStateOf(emptyLedger(EXP))).toBe("none");
    expect(paymentStateOf(opened(10))).toBe("held");
    const c = (status: CancellableStatus) =>
      paymentStateOf(applyPostings(opened(10), postingsForCancellation(opened(10), status, OP).postings));
    expect([c("open"), c("claimed"), c("in_progress")]).toEqual([
      "refunded",
      "partially_refunded",
      "paid_to_operator",
    ]);
  });
});

describe("hold adjustments", () => {
  it("raise and lower the hold, keyed by the experiment version", () => {
    const held = opened(10_000);
    const up = postingsForHoldChange(held, { targetCents: 12_500, version: 3 }, 1);
    expect(up.outcome).toBe("adjusted");
    expect(up.postings).toEqual([holdAdjustmentPosting(EXP, 3, 2_500)]);
    const raised = applyPostings(held, up.postings);
    expect(summarize(EXP, raised.postings)).toMatchObject({
      heldCents: 12_500,
      holdAdjustedCents: 2_500,
      stillHeldCents: 12_500,
    });

    const down = postingsForHoldChange(raised, { targetCents: 9_000, version: 4 }, 3);
    const lowered = applyPostings(raised, down.postings);
    expect(accountBalances(lowered.postings).get(REQUESTER_FUNDS)).toBe(-9_000);
    expect(summarize(EXP, lowered.postings)).toMatchObject({ heldCents: 9_000, stillHeldCents: 9_000 });
    expect(conservationViolations(EXP, lowered.postings)).toEqual([]);
  });

  it("a replayed or older re-estimate moves nothing", () => {
    const held = opened(10_000);
    const raised = applyPostings(
      held,
      postingsForHoldChange(held, { targetCents: 12_000, version: 5 }, 1).postings,
    );
    expect(postingsForHoldChange(raised, { targetCents: 12_000, version: 5 }, 5)).toEqual({
      outcome: "stale",
      postings: [],
    });
    // Version 4 arrives late: without the guard it would move the hold back to 11,000.
    expect(postingsForHoldChange(raised, { targetCents: 11_000, version: 4 }, 5).outcome).toBe("stale");
    // A re-estimate that moved nothing still counts, through the applied version.
    expect(postingsForHoldChange(held, { targetCents: 10_000, version: 2 }, 1).outcome).toBe("unchanged");
    expect(postingsForHoldChange(held, { targetCents: 7_000, version: 2 }, 3).outcome).toBe("stale");
  });

  it("is frozen once money left escrow", () => {
    const held = opened(10_000);
    const released = applyPostings(held, postingsForApproval(held, OP));
    expect(postingsForHoldChange(released, { targetCents: 20_000, version: 9 }, 1).outcome).toBe("frozen");
  });

  it("holds for the first time when the submission held nothing", () => {
    expect(postingsForHoldChange(emptyLedger(EXP), { targetCents: 700, version: 2 }, 1)).toEqual({
      outcome: "adjusted",
      postings: [holdPosting(EXP, 700)],
    });
    expect(postingsForHoldChange(emptyLedger(EXP), { targetCents: 0, version: 2 }, 1).outcome).toBe(
      "unchanged",
    );
    expect(postingsForHoldChange(emptyLedger(EXP), { targetCents: 700, version: 2 }, 2).outcome).toBe(
      "stale",
    );
  });

  it("an approval after an adjustment releases the adjusted hold", () => {
    const raised = applyPostings(
      opened(10_000),
      postingsForHoldChange(opened(10_000), { targetCents: 10_700, version: 2 }, 1).postings,
    );
    const approved = applyPostings(raised, postingsForApproval(raised, OP));
    expect(accountBalances(approved.postings).get(operatorPayableAccount(OP))).toBe(10_700);
    expect(conservationViolations(EXP, approved.postings)).toEqual([]);
  });
});

describe("cancellation with the event's amounts", () => {
  it("moves the announced refund and compensation when they add up to the hold", () => {
    const held = opened(10_000);
    const result = postingsForCancellationAmounts(held, { refundCents: 8_000, compensationCents: 2_000 }, OP);
    expect(result.refundStatus).toBe("partial");
    const ledger = applyPostings(held, result.postings);
    expect(summarize(EXP, ledger.postings)).toMatchObject({ refundedCents: 8_000, compensatedCents: 2_000 });
  });

  it("refuses amounts that do not match the hold, and compensation without an operator", () => {
    const held = opened(10_000);
    expect(
      ledgerErrorCode(() =>
        postingsForCancellationAmounts(held, { refundCents: 10_000, compensationCents: 1 }, OP),
      ),
    ).toBe("amount_mismatch");
    expect(
      ledgerErrorCode(() =>
        postingsForCancellationAmounts(held, { refundCents: 9_999, compensationCents: 0 }),
      ),
    ).toBe("amount_mismatch");
    expect(
      ledgerErrorCode(() =>
        postingsForCancellationAmounts(held, { refundCents: 0, compensationCents: 10_000 }),
      ),
    ).toBe("invalid_posting");
  });

  it("waits for a late hold, and moves nothing when nothing is held or announced", () => {
    expect(
      ledgerErrorCode(() =>
        postingsForCancellationAmounts(emptyLedger(EXP), { refundCents: 5, compensationCents: 0 }),
      ),
    ).toBe("no_hold");
    expect(
      postingsForCancellationAmounts(emptyLedger(EXP), { refundCents: 0, compensationCents: 0 }).postings,
    ).toEqual([]);
  });
});

describe("disputes raised after approval", () => {
  it("wait for the release instead of splitting the escrow", () => {
    const held = opened(10_000);
    expect(
      ledgerErrorCode(() =>
        postingsForDisputeResolution(held, OP, { outcome: "requester" }, { raisedAfterApproval: true }),
      ),
    ).toBe("release_pending");
    const released = applyPostings(held, postingsForApproval(held, OP));
    const [clawBack] = postingsForDisputeResolution(
      released,
      OP,
      { outcome: "requester" },
      { raisedAfterApproval: true },
    );
    expect(clawBack?.entries).toEqual([
      { account: operatorPayableAccount(OP), amountCents: -10_000 },
      { account: REQUESTER_REFUND, amountCents: 10_000 },
    ]);
  });
});

describe("paymentStatusOf", () => {
  it("names the ledger state, with open disputes shown as disputed", () => {
    expect(paymentStatusOf("none", false)).toBe("not_held");
    expect(paymentStatusOf("held", false)).toBe("held");
    expect(paymentStatusOf("held", true)).toBe("disputed");
    expect(paymentStatusOf("released", true)).toBe("disputed");
    expect(paymentStatusOf("paid_to_operator", false)).toBe("released");
    expect(paymentStatusOf("partially_refunded", false)).toBe("partially_refunded");
    expect(paymentStatusOf("dispute_resolved", true)).toBe("resolved");
  });
});

type Event =
  | { type: "open"; cents: number }
  | { type: "approve" }
  | { type: "reestimate"; cents: number; version: number }
  | { type: "cancel"; status: CancellableStatus }
  | { type: "resolve"; outcome: "requester" | "operator" | "split"; share: number };

const eventArb: fc.Arbitrary<Event> = fc.oneof(
  fc.record({ type: fc.constant("open" as const), cents: fc.integer({ min: 0, max: 5_000_000 }) }),
  fc.record({ type: fc.constant("approve" as const) }),
  fc.record({
    type: fc.constant("reestimate" as const),
    cents: fc.integer({ min: 0, max: 5_000_000 }),
    version: fc.integer({ min: 2, max: 12 }),
  }),
  fc.record({
    type: fc.constant("cancel" as const),
    status: fc.constantFrom<CancellableStatus>("draft", "pending_review", "open", "claimed", "in_progress"),
  }),
  fc.record({
    type: fc.constant("resolve" as const),
    outcome: fc.constantFrom("requester" as const, "operator" as const, "split" as const),
    share: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
);

describe("properties", () => {
  it("any sequence of events (replays and refused ones included) conserves money and never overdraws", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), eventArb), { maxLength: 25 }),
        (steps) => {
          const ledgers = [0, 1, 2].map((i) => emptyLedger(`exp_${i}`));
          const appliedVersions = [1, 1, 1];
          for (const [index, event] of steps) {
            const ledger = ledgers[index]!;
            try {
              let postings;
              if (event.type === "open") postings = postingsForOpened(ledger.experimentId, event.cents);
              else if (event.type === "approve") postings = postingsForApproval(ledger, OP);
              else if (event.type === "reestimate") {
                const change = postingsForHoldChange(
                  ledger,
                  { targetCents: event.cents, version: event.version },
                  appliedVersions[index]!,
                );
                if (change.outcome !== "stale") appliedVersions[index] = event.version;
                postings = change.postings;
              } else if (event.type === "cancel")
                postings = postingsForCancellation(ledger, event.status, OP).postings;
              else {
                const s = summarize(ledger.experimentId, ledger.postings);
                const disputed = s.stillHeldCents > 0 ? s.stillHeldCents : s.releasedCents;
                const requesterCents = Math.floor(disputed * event.share);
                postings = postingsForDisputeResolution(
                  ledger,
                  OP,
                  event.outcome === "split"
                    ? { outcome: "split", requesterCents, operatorCents: disputed - requesterCents }
                    : { outcome: event.outcome },
                );
              }
              ledgers[index] = applyPostings(ledger, postings);
            } catch (error) {
              if (!(error instanceof LedgerError)) throw error;
            }
            for (const l of ledgers) {
              expect(conservationViolations(l.experimentId, l.postings)).toEqual([]);
              const escrow = accountBalances(l.postings).get(escrowAccount(l.experimentId)) ?? 0;
              expect(escrow).toBeGreaterThanOrEqual(0);
              const keys = l.postings.map((p) => `${p.kind}:${p.key ?? ""}`);
              expect(new Set(keys).size).toBe(keys.length);
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
