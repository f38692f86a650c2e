/**
 * The requester's lifecycle after creation: PATCH before and after a claim (the claimed and
 * later states are set straight in the table here), cancellation refunds per status with
 * their events, and terminal states.
 */
import { Code } from "@connectrpc/connect";
import { ExperimentStatus } from "@petri/contracts/experiments";
import { describe, expect, it } from "vitest";
import type { ExperimentStatusName } from "@petri/contracts/vocabulary";
import { ENGINES, bodies, failure, json, outboxEvents, requester, experimentsOn } from "./support/harness.js";

describe.each(ENGINES)("experiment lifecycle on %s", (engine) => {
  const exp = experimentsOn(engine);

  async function openExperiment(me = requester(), body: Record<string, unknown> = bodies.open()) {
    const { experiment } = await exp.as(me).createExperiment({ requestJson: json(body) });
    return { me, experiment: experiment! };
  }

  /**
   * The state a claim (and the work after it) leaves, straight in the table: these tests are
   * about the requester's side (claim.int.test.ts and results.int.test.ts go the real way).
   */
  async function force(id: string, status: ExperimentStatusName) {
    const at = new Date("2026-11-21T12:00:00.000Z");
    const submitted = ["pending_approval", "completed", "disputed", "resolved"].includes(status);
    await exp.db
      .updateTable("experiments")
      .set((eb) => ({
        status,
        operator_id: "op_lab1",
        operator_account_id: "usr_lab1",
        operator_lab_name: "Lab One",
        claimed_at: at,
        deadline: new Date("2026-12-05T12:00:00.000Z"),
        results_submitted_at: submitted ? at : null,
        approved_at: status === "completed" ? at : null,
        completed_at: status === "completed" ? at : null,
        version: eb("version", "+", 1),
      }))
      .where("id", "=", id)
      .execute();
  }

  it("PATCH before a claim re-validates, re-prices, bumps the version and records ExperimentUpdated", async () => {
    const { me, experiment } = await openExperiment();
    const before = experiment.estimate!;
    const { experiment: patched } = await exp.as(me).updateExperiment({
      experimentId: experiment.id,
      patchJson: json({
        turnaround_priority: "urgent",
        constraints: { budget_max_usd: 400 },
        communication_preferences: {
          webhook_url: "https://hooks.example.org/petri",
          notification_events: ["claimed"],
        },
      }),
    });
    expect(patched).toMatchObject({ status: ExperimentStatus.OPEN, version: 2n });
    const request = JSON.parse(patched!.requestJson) as Record<string, any>;
    expect(request.turnaround_budget).toMatchObject({ budget_max_usd: 400, priority: "urgent" });
    expect(request.communication_preferences.webhook_url).toBe("https://hooks.example.org/petri");
    // Urgent costs more and gets the expedited turnaround; the hold follows the new estimate.
    expect(patched!.estimate!.costTypicalCents).toBeGreaterThan(before.costTypicalCents);
    expect(patched!.estimate!.turnaroundDays).toBe(patched!.estimate!.turnaroundExpeditedDays);
    expect(patched!.holdAmountCents).toBe(patched!.estimate!.costTypicalCents);

    const events = await outboxEvents(exp.db, experiment.id);
    expect(events.map((e) => [e.subject, e.version])).toEqual([
      ["petri.experiments.experiment_submitted", 1],
      ["petri.experiments.experiment_opened", 1],
      ["petri.experiments.experiment_updated", 2],
    ]);
    expect(events[2]!.payload.holdAmountCents).toBe(patched!.holdAmountCents);
    expect(
      JSON.parse(events[2]!.payload.experiment.requestJson).communication_preferences.notification_events,
    ).toEqual(["claimed"]);
    const got = await exp.as(me).getExperiment({ experimentId: experiment.id });
    expect(got.experiment).toEqual(patched);
  });

  it("PATCH refuses other fields and invalid values with 422, changing nothing", async () => {
    const { me, experiment } = await openExperiment();
    const other = await failure(
      exp.as(me).updateExperiment({
        experimentId: experiment.id,
        patchJson: json({ title: "new", status: "completed" }),
      }),
    );
    expect(other.code).toBe(Code.InvalidArgument);
    expect(other.violations.map((v) => v.field)).toEqual(["title", "status"]);
    const invalid = await failure(
      exp.as(me).updateExperiment({
        experimentId: experiment.id,
        patchJson: json({ turnaround_priority: "yesterday" }),
      }),
    );
    expect(invalid.code).toBe(Code.InvalidArgument);
    expect(invalid.violations[0]!.field).toContain("turnaround_priority");
    const got = await exp.as(me).getExperiment({ experimentId: experiment.id });
    expect(got.experiment!.version).toBe(1n);
    // An empty patch is a no-op.
    const same = await exp.as(me).updateExperiment({ experimentId: experiment.id, patchJson: "{}" });
    expect(same.experiment).toEqual(got.experiment);
  });

  it("PATCH after a claim is 409 invalid_state with the status and the allowed statuses", async () => {
    const { me, experiment } = await openExperiment();
    await force(experiment.id, "claimed");
    const refused = await failure(
      exp.as(me).updateExperiment({
        experimentId: experiment.id,
        patchJson: json({ turnaround_priority: "urgent" }),
      }),
    );
    expect(refused.code).toBe(Code.FailedPrecondition);
    expect(refused.reason).toBe("invalid_state");
    expect(refused.details).toEqual({ status: "claimed", allowed_from: ["draft", "pending_review", "open"] });
    const got = await exp.as(me).getExperiment({ experimentId: experiment.id });
    expect(got.experiment!.operator).toMatchObject({ operatorId: "op_lab1", labName: "Lab One" });
  });

  it("PATCH a draft keeps it a draft, holding nothing and recording nothing after ExperimentDrafted", async () => {
    const me = requester();
    const { experiment: draft } = await exp
      .as(me)
      .createExperiment({ requestJson: json(bodies.open()), saveAsDraft: true });
    const { experiment: patched } = await exp
      .as(me)
      .updateExperiment({ experimentId: draft!.id, patchJson: json({ turnaround_days: 20 }) });
    expect(patched).toMatchObject({ status: ExperimentStatus.DRAFT, version: 2n, holdAmountCents: 0n });
    expect(JSON.parse(patched!.requestJson).turnaround_budget.desired_turnaround_days).toBe(20);
    expect((await outboxEvents(exp.db, draft!.id)).map((e) => [e.subject, e.version])).toEqual([
      ["petri.experiments.experiment_drafted", 1],
    ]);
  });

  it("cancel refunds by status: open full, claimed 80 % (20 % to the operator), in_progress none", async () => {
    const cases: Array<{
      status: ExperimentStatusName;
      refund: (hold: bigint) => bigint;
      refundStatus: string;
    }> = [
      { status: "open", refund: (h) => h, refundStatus: "full" },
      { status: "claimed", refund: (h) => h - (h * 2000n + 5000n) / 10000n, refundStatus: "partial" },
      { status: "in_progress", refund: () => 0n, refundStatus: "none" },
    ];
    for (const c of cases) {
      const { me, experiment } = await openExperiment();
      if (c.status !== "open") await force(experiment.id, c.status);
      const hold = experiment.holdAmountCents;
      const { experiment: cancelled } = await exp
        .as(me)
        .cancelExperiment({ experimentId: experiment.id, reason: `  changed plans (${c.status})  ` });
      expect(cancelled!.status).toBe(ExperimentStatus.CANCELLED);
      const expectedRefund = c.refund(hold);
      expect(cancelled!.cancellation).toMatchObject({
        reason: `changed plans (${c.status})`,
        refundAmountCents: expectedRefund,
        operatorCompensationCents: hold - expectedRefund,
        refundStatus: c.refundStatus,
      });
      const events = await outboxEvents(exp.db, experiment.id);
      const last = events.at(-1)!;
      expect(last.subject).toBe("petri.experiments.experiment_cancelled");
      expect(last.payload.refundAmountCents).toBe(expectedRefund);
      expect(last.payload.operatorCompensationCents).toBe(hold - expectedRefund);
      expect(last.payload.experiment.status).toBe(ExperimentStatus.CANCELLED);
      expect(last.version).toBe(Number(cancelled!.version));
    }
  });

  it("cancel from pending_review refunds in full; a draft holds nothing and records nothing", async () => {
    const { me, experiment } = await openExperiment(requester(), bodies.custom());
    expect(experiment.status).toBe(ExperimentStatus.PENDING_REVIEW);
    const { experiment: cancelled } = await exp
      .as(me)
      .cancelExperiment({ experimentId: experiment.id, reason: "no" });
    expect(cancelled!.cancellation).toMatchObject({
      refundAmountCents: experiment.holdAmountCents,
      refundStatus: "full",
    });

    const { experiment: draft } = await exp
      .as(me)
      .createExperiment({ requestJson: json(bodies.open()), saveAsDraft: true });
    const { experiment: dropped } = await exp
      .as(me)
      .cancelExperiment({ experimentId: draft!.id, reason: "no" });
    expect(dropped!.cancellation).toMatchObject({
      refundAmountCents: 0n,
      operatorCompensationCents: 0n,
      refundStatus: "none",
    });
    expect((await outboxEvents(exp.db, draft!.id)).map((e) => [e.subject, e.version])).toEqual([
      ["petri.experiments.experiment_drafted", 1],
    ]);
  });

  it("cancel needs a reason of 1..1000 characters", async () => {
    const { me, experiment } = await openExperiment();
    for (const reason of ["", "   ", "x".repeat(1001)]) {
      const refused = await failure(exp.as(me).cancelExperiment({ experimentId: experiment.id, reason }));
      expect(refused.code).toBe(Code.InvalidArgument);
      expect(refused.violations[0]!.field).toBe("reason");
    }
    await expect(
      exp.as(me).cancelExperiment({ experimentId: experiment.id, reason: "x".repeat(1000) }),
    ).resolves.toBeDefined();
  });

  it.each(["pending_approval", "completed", "disputed", "resolved"] as const)(
    "cancel from %s is 409 invalid_state",
    async (status) => {
      const { me, experiment } = await openExperiment();
      await force(experiment.id, status);
      const refused = await failure(
        exp.as(me).cancelExperiment({ experimentId: experiment.id, reason: "late" }),
      );
      expect(refused).toMatchObject({ code: Code.FailedPrecondition, reason: "invalid_state" });
      expect(refused.details).toEqual({
        status,
        allowed_from: ["draft", "pending_review", "open", "claimed", "in_progress"],
      });
    },
  );

  it("a cancelled experiment cannot be cancelled or changed again", async () => {
    const { me, experiment } = await openExperiment();
    await exp.as(me).cancelExperiment({ experimentId: experiment.id, reason: "once" });
    expect(
      (await failure(exp.as(me).cancelExperiment({ experimentId: experiment.id, reason: "twice" }))).details,
    ).toMatchObject({
      status: "cancelled",
    });
    expect(
      (
        await failure(
          exp
            .as(me)
            .updateExperiment({ experimentId: experiment.id, patchJson: json({ turnaround_days: 3 }) }),
        )
      ).reason,
    ).toBe("invalid_state");
    const cancelledEvents = (await outboxEvents(exp.db, experiment.id)).filter(
      (e) => e.subject === "petri.experiments.experiment_cancelled",
    );
    expect(cancelledEvents).toHaveLength(1);
  });

  it("concurrent cancels of one experiment: exactly one wins, one event", async () => {
    const { me, experiment } = await openExperiment();
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () =>
        exp.as(me).cancelExperiment({ experimentId: experiment.id, reason: "race" }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const cancelled = (await outboxEvents(exp.db, experiment.id)).filter(
      (e) => e.subject === "petri.experiments.experiment_cancelled",
    );
    expect(cancelled).toHaveLength(1);
  });
});
