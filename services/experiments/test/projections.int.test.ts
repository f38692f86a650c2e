/**
 * The marketplace's events consumed into local projections, through the bus and the
 * service's own consumer: operator eligibility (what a claim is checked against) and the
 * payment state (Experiment.payment). Both keep the newest version only, so duplicates and
 * stale, reordered events change nothing.
 */
import { create } from "@bufbuild/protobuf";
import { ExperimentStatus } from "@petri/contracts/experiments";
import { PaymentUpdatedSchema } from "@petri/contracts/marketplace";
import { describe, expect, it } from "vitest";
import { applyPaymentUpdated } from "../src/events/payment-updated.js";
import { ENGINES, failure, experimentsOn } from "./support/harness.js";
import { CLAIM, openExperiment } from "./support/loop.js";
import { eligibilityOf, publishEligibility, publishPayment } from "./support/marketplace.js";

describe.each(ENGINES)("marketplace projections on %s", (engine) => {
  const exp = experimentsOn(engine);

  const projected = (operatorId: string) =>
    exp.db
      .selectFrom("operator_eligibility")
      .selectAll()
      .where("operator_id", "=", operatorId)
      .executeTakeFirst();

  it("keeps the newest eligibility snapshot: a stale version arriving later changes nothing", async () => {
    const v1 = eligibilityOf({ version: 1n, status: "active", maxConcurrentJobs: 2 });
    await publishEligibility(exp, v1);
    expect(await projected(v1.operatorId)).toMatchObject({
      status: "active",
      version: 1,
      max_concurrent_jobs: 2,
    });

    const v3 = { ...v1, version: 3n, status: "suspended", maxConcurrentJobs: 4 };
    await publishEligibility(exp, v3);
    // v2 was delayed and arrives after v3: ignored.
    await publishEligibility(exp, { ...v1, version: 2n, status: "active", maxConcurrentJobs: 9 });
    // An equal version (a re-publish under another event id) is not applied twice either.
    await publishEligibility(exp, { ...v1, version: 3n, status: "paused" });
    expect(await projected(v1.operatorId)).toMatchObject({
      status: "suspended",
      version: 3,
      max_concurrent_jobs: 4,
    });

    // The claim check reads the projection: the suspended lab may not claim.
    const { experiment } = await openExperiment(exp);
    const principal = { accountId: v1.accountId, role: "operator" as const, tier: "standard" as const };
    const refused = await failure(
      exp.as(principal).claimExperiment({ experimentId: experiment.id, ...CLAIM }),
    );
    expect(refused.details.failed_filters).toEqual(["operator_status"]);

    await publishEligibility(exp, { ...v1, version: 4n, status: "active" });
    const { experiment: claimed } = await exp
      .as(principal)
      .claimExperiment({ experimentId: experiment.id, ...CLAIM });
    expect(claimed!.status).toBe(ExperimentStatus.CLAIMED);
  });

  it("projects payments onto Experiment.payment, newest ledger version only, without bumping the experiment", async () => {
    const { requester: me, experiment } = await openExperiment(exp);
    expect(experiment.payment).toMatchObject({ status: "not_held", heldCents: 0n, stillHeldCents: 0n });
    const hold = experiment.holdAmountCents;

    await publishPayment(exp, {
      experimentId: experiment.id,
      status: "held",
      heldCents: hold,
      stillHeldCents: hold,
      version: 1n,
    });
    const held = (await exp.as(me).getExperiment({ experimentId: experiment.id })).experiment!;
    expect(held.payment).toMatchObject({ status: "held", heldCents: hold, stillHeldCents: hold });
    expect(held.payment!.updatedAt).toBeDefined();
    expect(held.version).toBe(experiment.version);

    await publishPayment(
      exp,
      { experimentId: experiment.id, status: "refunded", heldCents: hold, refundedCents: hold, version: 3n },
      "refund",
    );
    await publishPayment(
      exp,
      { experimentId: experiment.id, status: "held", heldCents: hold, stillHeldCents: hold, version: 2n },
      "hold_adjustment",
    );
    const latest = (await exp.as(me).getExperiment({ experimentId: experiment.id })).experiment!;
    expect(latest.payment).toMatchObject({ status: "refunded", refundedCents: hold, stillHeldCents: 0n });
  });

  it("ignores a payment for an experiment it does not know, and refuses a status outside the contract", async () => {
    await publishPayment(exp, {
      experimentId: "exp_00000000000000000000000000",
      status: "held",
      heldCents: 100n,
      version: 1n,
    });
    const { experiment } = await openExperiment(exp);
    // The handler throws, so the runner retries and finally dead-letters it (never a silent skip).
    const event = create(PaymentUpdatedSchema, {
      payment: { experimentId: experiment.id, status: "lost", version: 1n },
      kind: "hold",
    });
    await expect(
      exp.db.transaction().execute((trx) => applyPaymentUpdated(trx, event, exp.clock.now())),
    ).rejects.toThrow(/unknown status "lost"/);
  });
});
