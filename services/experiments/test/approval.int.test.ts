/**
 * The requester's decision on delivered results: approval (rating, feedback, on_time, the
 * release instruction) and disputes (reasons, validation, the 14-day window after approval),
 * each with its event; only the requester decides.
 */
import { Code } from "@connectrpc/connect";
import { ExperimentStatus } from "@petri/contracts/experiments";
import { describe, expect, it } from "vitest";
import { DISPUTE_WINDOW_DAYS } from "../src/domain/disputes/index.js";
import { ENGINES, failure, jump, outboxEvents, requester, staff, experimentsOn } from "./support/harness.js";
import { approvedExperiment, openExperiment, submittedExperiment } from "./support/loop.js";

const DAY_MS = 86_400_000;
const DISPUTE = {
  reason: "results_incorrect",
  description: "The MIC reported contradicts the raw plate reads.",
  evidenceUrls: ["https://evidence.example.org/plate.png"],
};

describe.each(ENGINES)("approving and disputing results on %s", (engine) => {
  const exp = experimentsOn(engine);

  it("approves: completed, rating and feedback kept, payment_released, ResultsApproved with on_time", async () => {
    const { requester: me, experiment } = await submittedExperiment(exp);
    const answer = await exp
      .as(me)
      .approveResults({ experimentId: experiment.id, rating: 4, feedback: "  Clear data, thanks. " });
    expect(answer.paymentReleased).toBe(true);
    expect(answer.experiment).toMatchObject({
      status: ExperimentStatus.COMPLETED,
      version: experiment.version + 1n,
      approval: { rating: 4, feedback: "Clear data, thanks." },
    });
    expect(answer.experiment!.completedAt).toEqual(answer.experiment!.approval!.approvedAt);

    const events = (await outboxEvents(exp.db, experiment.id)).filter(
      (e) => e.subject === "petri.experiments.results_approved",
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.payload).toMatchObject({ rating: 4, onTime: true });
    expect(events[0]!.payload.experiment.operator.operatorId).toBe(experiment.operator!.operatorId);
    expect(events[0]!.payload.experiment.holdAmountCents).toBe(experiment.holdAmountCents);

    const again = await failure(exp.as(me).approveResults({ experimentId: experiment.id }));
    expect(again).toMatchObject({ code: Code.FailedPrecondition, reason: "invalid_state" });
    expect(again.details).toEqual({ status: "completed", allowed_from: ["pending_approval"] });
  });

  it("reports late results as not on time, and a rating of 0 as none", async () => {
    const submitted = await submittedExperiment(exp);
    // Submitted now; pretend the deadline had passed a day before.
    await exp.db
      .updateTable("experiments")
      .set({ deadline: new Date(exp.clock.now().getTime() - DAY_MS) })
      .where("id", "=", submitted.experiment.id)
      .execute();
    const { experiment } = await exp
      .as(submitted.requester)
      .approveResults({ experimentId: submitted.experiment.id });
    expect(experiment!.approval).toMatchObject({ rating: 0, feedback: "" });
    const [approved] = (await outboxEvents(exp.db, submitted.experiment.id)).filter(
      (e) => e.subject === "petri.experiments.results_approved",
    );
    expect(approved!.payload).toMatchObject({ rating: 0, onTime: false });
  });

  it("validates rating (1-5) and feedback (at most 2,000 characters)", async () => {
    const { requester: me, experiment } = await submittedExperiment(exp);
    for (const input of [{ rating: 6 }, { rating: -1 }, { feedback: "x".repeat(2001) }]) {
      const refused = await failure(exp.as(me).approveResults({ experimentId: experiment.id, ...input }));
      expect(refused.code).toBe(Code.InvalidArgument);
    }
  });

  it("is the requester's decision only: staff and the operator 403, others 404; not before results (409)", async () => {
    const submitted = await submittedExperiment(exp);
    const id = submitted.experiment.id;
    for (const who of [staff(), submitted.operator.principal]) {
      expect((await failure(exp.as(who).approveResults({ experimentId: id }))).code).toBe(
        Code.PermissionDenied,
      );
      expect((await failure(exp.as(who).disputeResults({ experimentId: id, ...DISPUTE }))).code).toBe(
        Code.PermissionDenied,
      );
    }
    expect((await failure(exp.as(requester()).approveResults({ experimentId: id }))).code).toBe(
      Code.NotFound,
    );

    const { experiment } = await exp.as(submitted.requester).getExperiment({ experimentId: id });
    expect(experiment!.status).toBe(ExperimentStatus.PENDING_APPROVAL);
  });

  it("disputes from pending_approval: dsp_ id, status disputed, ExperimentDisputed with the dispute", async () => {
    const { requester: me, experiment, operator } = await submittedExperiment(exp);
    const { experiment: disputed, dispute } = await exp
      .as(me)
      .disputeResults({ experimentId: experiment.id, ...DISPUTE });
    expect(disputed!.status).toBe(ExperimentStatus.DISPUTED);
    expect(dispute).toMatchObject({
      experimentId: experiment.id,
      reason: "results_incorrect",
      description: DISPUTE.description,
      evidenceUrls: DISPUTE.evidenceUrls,
      status: "open",
      raisedFrom: "pending_approval",
      requesterAccountId: me.accountId,
      operatorId: operator.eligibility.operatorId,
    });
    expect(dispute!.id).toMatch(/^dsp_/);
    expect(disputed!.dispute).toEqual(dispute);

    const events = (await outboxEvents(exp.db, experiment.id)).filter(
      (e) => e.subject === "petri.experiments.experiment_disputed",
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.payload.dispute.id).toBe(dispute!.id);
    expect(events[0]!.payload.experiment.dispute.id).toBe(dispute!.id);

    const twice = await failure(exp.as(me).disputeResults({ experimentId: experiment.id, ...DISPUTE }));
    expect(twice).toMatchObject({ code: Code.FailedPrecondition, reason: "invalid_state" });
    // A disputed experiment can no longer be approved.
    expect((await failure(exp.as(me).approveResults({ experimentId: experiment.id }))).details).toEqual({
      status: "disputed",
      allowed_from: ["pending_approval"],
    });
  });

  it("validates the dispute: reason, description length (50 for other), evidence URLs", async () => {
    const { requester: me, experiment } = await submittedExperiment(exp);
    const cases: Array<[Partial<typeof DISPUTE>, string[]]> = [
      [{ reason: "angry" }, ["reason"]],
      [{ description: "too short" }, ["description"]],
      [{ reason: "other", description: "Not what we asked for at all, sorry." }, ["description"]],
      [{ evidenceUrls: ["http://plain.example.org/x"] }, ["evidence_urls[0]"]],
      [{ evidenceUrls: Array(11).fill("https://e.example.org/x") }, ["evidence_urls"]],
    ];
    for (const [change, fields] of cases) {
      const refused = await failure(
        exp.as(me).disputeResults({ experimentId: experiment.id, ...DISPUTE, ...change }),
      );
      expect(refused.code).toBe(Code.InvalidArgument);
      expect(refused.violations.map((v) => v.field)).toEqual(fields);
    }
  });

  it("disputes a completed experiment within 14 days of approval, not after (409 dispute_window_closed)", async () => {
    const inWindow = await approvedExperiment(exp);
    await jump(exp, DISPUTE_WINDOW_DAYS * DAY_MS);
    const { dispute } = await exp
      .as(inWindow.requester)
      .disputeResults({ experimentId: inWindow.experiment.id, ...DISPUTE });
    expect(dispute!.raisedFrom).toBe("completed");

    const late = await approvedExperiment(exp);
    await jump(exp, DISPUTE_WINDOW_DAYS * DAY_MS + 1000);
    const refused = await failure(
      exp.as(late.requester).disputeResults({ experimentId: late.experiment.id, ...DISPUTE }),
    );
    expect(refused).toMatchObject({ code: Code.AlreadyExists, reason: "dispute_window_closed" });
    expect(refused.details).toMatchObject({ status: "completed", window_days: DISPUTE_WINDOW_DAYS });
  });

  it("refuses a dispute before results exist (409 invalid_state)", async () => {
    const { requester: me, experiment } = await openExperiment(exp);
    const refused = await failure(exp.as(me).disputeResults({ experimentId: experiment.id, ...DISPUTE }));
    expect(refused).toMatchObject({ code: Code.FailedPrecondition, reason: "invalid_state" });
    expect(refused.details).toEqual({ status: "open", allowed_from: ["pending_approval", "completed"] });
  });
});
