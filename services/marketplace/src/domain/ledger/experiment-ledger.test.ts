import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { REQUESTER_REFUND, escrowAccount, operatorPayableAccount } from "./accounts.js";
import { LedgerError } from "./errors.js";
import {
  type CancellableStatus,
  type ExperimentLedger,
  accountBalances,
  applyPosting,
  applyPostings,
  claimedCompensationCents,
  conservationViolations,
  emptyLedger,
  paymentStateOf,
  postingsForApproval,
  postingsForCancellation,
  postingsForDisputeResolution,
  postingsForOpened,
  summarize,
} from "./experiment-ledger.js";
import { holdPosting, refundPosting, releasePosting } from "./postings.js";

const EXP = "exp_1";
const OP = "op_1";

function opened(cents: number): ExperimentLedger {
  return applyPostings(emptyLedger(EXP), postingsForOpened(EXP, cents));
}

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof LedgerError ? error.code : `not a LedgerError: ${String(error)}`;
  }
  return undefined;
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
    expect(code(() => applyPosting(opened(5_000), holdPosting(EXP, 5_001)))).toBe("conflicting_replay");
    const cancelled = applyPostings(opened(5_000), postingsForCancellation(opened(5_000), "open").postings);
    expect(
      code(() => applyPostings(cancelled, postingsForCancellation(cancelled, "claimed", OP).postings)),
    ).toBe("conflicting_replay");
  });

  it("escrow never goes negative and nothing moves before a hold", () => {
    expect(code(() => applyPosting(opened(100), releasePosting(EXP, OP, 101)))).toBe("escrow_overdrawn");
    const released = applyPostings(opened(100), postingsForApproval(opened(100), OP));
    expect(code(() => applyPosting(released, refundPosting(EXP, 1)))).toBe("escrow_overdrawn");
    expect(code(() => applyPosting(emptyLedger(EXP), refundPosting(EXP, 1)))).toBe("no_hold");
    expect(code(() => postingsForApproval(emptyLedger(EXP), OP))).toBe("no_hold");
    expect(code(() => applyPosting(emptyLedger("exp_2"), holdPosting(EXP, 1)))).toBe("invalid_posting");
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
      code(() =>
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

type Event =
  | { type: "open"; cents: number }
  | { type: "approve" }
  | { type: "cancel"; status: CancellableStatus }
  | { type: "resolve"; outcome: "requester" | "operator" | "split"; share: number };

const eventArb: fc.Arbitrary<Event> = fc.oneof(
  fc.record({ type: fc.constant("open" as const), cents: fc.integer({ min: 0, max: 5_000_000 }) }),
  fc.record({ type: fc.constant("approve" as const) }),
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
          for (const [index, event] of steps) {
            const ledger = ledgers[index]!;
            try {
              let postings;
              if (event.type === "open") postings = postingsForOpened(ledger.experimentId, event.cents);
              else if (event.type === "approve") postings = postingsForApproval(ledger, OP);
              else if (event.type === "cancel")
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
              const kinds = l.postings.map((p) => p.kind);
              expect(new Set(kinds).size).toBe(kinds.length);
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
