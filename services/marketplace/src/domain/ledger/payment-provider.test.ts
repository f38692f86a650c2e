import { describe, expect, it } from "vitest";
import { applyPostings, emptyLedger } from "./experiment-ledger.js";
import { postingsForCancellation, postingsForOpened } from "./event-postings.js";
import { SandboxPaymentProvider, executePosting, providerCallsFor } from "./payment-provider.js";
import { disputeResolutionPosting, holdAdjustmentPosting, holdPosting, releasePosting } from "./postings.js";

describe("payment provider port", () => {
  it("maps postings to provider calls keyed by experiment and kind", () => {
    expect(providerCallsFor(holdPosting("exp_1", 500))).toEqual([
      {
        method: "authorizeHold",
        request: { idempotencyKey: "exp_1:hold", experimentId: "exp_1", amountCents: 500 },
      },
    ]);
    expect(providerCallsFor(releasePosting("exp_1", "op_9", 500))).toEqual([
      {
        method: "capture",
        request: {
          idempotencyKey: "exp_1:release:capture",
          experimentId: "exp_1",
          operatorId: "op_9",
          amountCents: 500,
        },
      },
    ]);
    const split = providerCallsFor(
      disputeResolutionPosting("exp_1", "op_9", { requesterCents: 2, operatorCents: 3 }, "escrow"),
    );
    expect(split.map((c) => [c.method, c.request.amountCents])).toEqual([
      ["refund", 2],
      ["capture", 3],
    ]);
  });

  it("maps hold adjustments to an extra authorisation or a reduction, keyed by version", () => {
    expect(providerCallsFor(holdAdjustmentPosting("exp_1", 3, 250))).toEqual([
      {
        method: "authorizeHold",
        request: { idempotencyKey: "exp_1:hold_adjustment:v3", experimentId: "exp_1", amountCents: 250 },
      },
    ]);
    expect(providerCallsFor(holdAdjustmentPosting("exp_1", 4, -100))).toEqual([
      {
        method: "reduceHold",
        request: { idempotencyKey: "exp_1:hold_adjustment:v4", experimentId: "exp_1", amountCents: 100 },
      },
    ]);
  });

  it("the sandbox records calls with deterministic ids and honours idempotency keys", async () => {
    const sandbox = new SandboxPaymentProvider();
    const held = applyPostings(emptyLedger("exp_1"), postingsForOpened("exp_1", 1_000));
    const cancel = postingsForCancellation(held, "claimed", "op_1").postings;
    const first = [...(await executePosting(sandbox, held.postings[0]!))];
    for (const posting of cancel) first.push(...(await executePosting(sandbox, posting)));
    expect(first.map((r) => r.providerId)).toEqual(["sbx_hold_000001", "sbx_ref_000002", "sbx_cap_000003"]);
    const replay = await executePosting(sandbox, cancel[0]!);
    expect(replay).toEqual([{ providerId: "sbx_ref_000002" }]);
    expect(sandbox.calls).toHaveLength(4);
    expect(sandbox.effective("refund").map((c) => c.request.amountCents)).toEqual([800]);
    expect(sandbox.effective("capture").map((c) => c.request.amountCents)).toEqual([200]);
  });
});
