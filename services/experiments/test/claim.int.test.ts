/**
 * The operator's side up to the results: claiming (verified operators only, the shared
 * eligibility rule, own requests, states), the capacity race of one operator, starting work
 * and reporting issues, with the events each records.
 */
import { Code } from "@connectrpc/connect";
import { ExperimentStatus } from "@petri/contracts/experiments";
import { describe, expect, it } from "vitest";
import { MAX_ISSUES_PER_EXPERIMENT } from "../src/domain/issues/index.js";
import {
  ENGINES,
  bodies,
  experimentsOn,
  failure,
  json,
  outboxEvents,
  requester,
  staff,
} from "./support/harness.js";
import { CLAIM, approvedExperiment, claimedExperiment, openExperiment } from "./support/loop.js";
import { verifiedOperator } from "./support/marketplace.js";

describe.each(ENGINES)("claiming and working on experiments on %s", (engine) => {
  const exp = experimentsOn(engine);

  it("claims an open experiment: operator assignment, deadline, version, and ExperimentClaimed with the job", async () => {
    const { experiment: opened } = await openExperiment(exp);
    const operator = await verifiedOperator(exp);
    const { experiment } = await exp.as(operator.principal).claimExperiment({
      experimentId: opened.id,
      ...CLAIM,
      estimatedStartDate: "2026-11-23",
      notes: "  we start Monday  ",
    });
    const claimedAt = exp.clock.now();
    const turnaroundDays = opened.estimate!.turnaroundDays;
    expect(experiment).toMatchObject({ status: ExperimentStatus.CLAIMED, version: opened.version + 1n });
    expect(experiment!.operator).toMatchObject({
      operatorId: operator.eligibility.operatorId,
      operatorAccountId: operator.eligibility.accountId,
      labName: operator.eligibility.labName,
      estimatedStartDate: "2026-11-23",
      notes: "we start Monday",
    });
    const deadline = experiment!.operator!.deadline!;
    expect(Number(deadline.seconds) * 1000).toBe(claimedAt.getTime() + turnaroundDays * 86_400_000);
    expect(experiment!.job).toMatchObject({ experimentType: "MIC_MBC_ASSAY", bslLevel: "BSL-1" });

    const events = await outboxEvents(exp.db, opened.id);
    const claimed = events.filter((e) => e.subject === "petri.experiments.experiment_claimed");
    expect(claimed).toHaveLength(1);
    expect(claimed[0]!.version).toBe(Number(experiment!.version));
    expect(claimed[0]!.payload.experiment.operator.operatorId).toBe(operator.eligibility.operatorId);
    // A standard assay's equipment comes with the verified competency (decisions.md): none required.
    expect(claimed[0]!.payload.experiment.job.equipmentRequired).toEqual([]);

    // The operator now sees the experiment; the requester sees who took it.
    const seen = await exp.as(operator.principal).getExperiment({ experimentId: opened.id });
    expect(seen.experiment).toEqual(experiment);
  });

  it("takes the deadline from a hard deadline: the end of that day, UTC", async () => {
    const body = bodies.open();
    body.turnaround_budget = { hard_deadline: "2026-12-20" };
    const { experiment: opened } = await openExperiment(exp, body);
    const operator = await verifiedOperator(exp);
    const { experiment } = await exp
      .as(operator.principal)
      .claimExperiment({ experimentId: opened.id, ...CLAIM });
    expect(new Date(Number(experiment!.operator!.deadline!.seconds) * 1000).toISOString()).toBe(
      "2026-12-20T23:59:59.000Z",
    );
    expect(experiment!.job!.deadline).toBe("2026-12-20");
  });

  it("needs both confirmations (422 with the fields), before anything else", async () => {
    const { experiment: opened } = await openExperiment(exp);
    const operator = await verifiedOperator(exp);
    const refused = await failure(
      exp
        .as(operator.principal)
        .claimExperiment({ experimentId: opened.id, estimatedStartDate: "2026-02-30" }),
    );
    expect(refused.code).toBe(Code.InvalidArgument);
    expect(refused.violations.map((v) => v.field)).toEqual([
      "equipment_confirmation",
      "authorization_confirmation",
      "estimated_start_date",
    ]);
  });

  it("refuses an account that is not a verified operator (403), whatever the experiment", async () => {
    const { experiment: opened } = await openExperiment(exp);
    for (const who of [requester(), staff(), { ...requester(), role: "operator" as const }]) {
      const refused = await failure(exp.as(who).claimExperiment({ experimentId: opened.id, ...CLAIM }));
      expect(refused.code).toBe(Code.PermissionDenied);
      expect(refused.message).toContain("not a verified operator");
    }
  });

  it("refuses an unqualified operator with 403 naming every failed filter", async () => {
    const body = bodies.open();
    body.compliance = { bsl: "BSL2", animal_derived_material: true };
    const { experiment: opened } = await openExperiment(exp, body);
    const operator = await verifiedOperator(exp, {
      maxBsl: "BSL-1",
      animalSamplesApproved: false,
      equipment: ["thermal cycler"],
      experimentTypes: ["QPCR_EXPRESSION"],
    });
    const refused = await failure(
      exp.as(operator.principal).claimExperiment({ experimentId: opened.id, ...CLAIM }),
    );
    expect(refused.code).toBe(Code.PermissionDenied);
    expect(refused.reason).toBe("forbidden");
    expect(refused.details.failed_filters).toEqual(["competency", "bsl", "animal_samples"]);
    expect((refused.details.reasons as string[]).length).toBe(3);
    expect((await outboxEvents(exp.db, opened.id)).map((e) => e.subject)).not.toContain(
      "petri.experiments.experiment_claimed",
    );
  });

  it("requires a custom protocol's required equipment: 403 without it, claimed with it", async () => {
    const me = requester();
    const { experiment: submitted } = await exp
      .as(me)
      .createExperiment({ requestJson: json(bodies.custom()) });
    expect(submitted!.job!.equipmentRequired.length).toBeGreaterThan(0);
    await exp.as(staff()).approveReview({ experimentId: submitted!.id, note: "protocol is sound" });
    const lacking = await verifiedOperator(exp, {
      equipment: ["thermal cycler"],
      experimentTypes: ["CUSTOM"],
    });
    const refused = await failure(
      exp.as(lacking.principal).claimExperiment({ experimentId: submitted!.id, ...CLAIM }),
    );
    expect(refused.code).toBe(Code.PermissionDenied);
    expect(refused.details.failed_filters).toEqual(["equipment"]);
    const equipped = await verifiedOperator(exp, {
      equipment: submitted!.job!.equipmentRequired.map((name) => name.toUpperCase()),
      experimentTypes: ["CUSTOM"],
    });
    const { experiment } = await exp
      .as(equipped.principal)
      .claimExperiment({ experimentId: submitted!.id, ...CLAIM });
    expect(experiment!.status).toBe(ExperimentStatus.CLAIMED);
  });

  it("refuses an operator that is not active with 403 even when the job is already taken", async () => {
    const { experiment: opened } = await openExperiment(exp);
    const winner = await verifiedOperator(exp);
    await exp.as(winner.principal).claimExperiment({ experimentId: opened.id, ...CLAIM });
    for (const status of ["pending_verification", "suspended"]) {
      const lab = await verifiedOperator(exp, { status });
      const refused = await failure(
        exp.as(lab.principal).claimExperiment({ experimentId: opened.id, ...CLAIM }),
      );
      expect(refused.code, status).toBe(Code.PermissionDenied);
      expect(refused.details.failed_filters).toEqual(["operator_status"]);
    }
    const other = await verifiedOperator(exp);
    const taken = await failure(
      exp.as(other.principal).claimExperiment({ experimentId: opened.id, ...CLAIM }),
    );
    expect(taken.reason).toBe("experiment_already_claimed");
  });

  it("refuses a suspended operator and one on vacation", async () => {
    const { experiment: opened } = await openExperiment(exp);
    const suspended = await verifiedOperator(exp, { status: "suspended" });
    expect(
      (await failure(exp.as(suspended.principal).claimExperiment({ experimentId: opened.id, ...CLAIM })))
        .details.failed_filters,
    ).toEqual(["operator_status"]);
    const today = exp.clock.now().toISOString().slice(0, 10);
    const away = await verifiedOperator(exp, { vacations: [{ start: today, end: today }] });
    expect(
      (await failure(exp.as(away.principal).claimExperiment({ experimentId: opened.id, ...CLAIM }))).details
        .failed_filters,
    ).toEqual(["vacation"]);
  });

  it("refuses an operator's own request (403)", async () => {
    const operator = await verifiedOperator(exp);
    const { experiment: own } = await openExperiment(exp, bodies.open(), operator.principal);
    const refused = await failure(
      exp.as(operator.principal).claimExperiment({ experimentId: own.id, ...CLAIM }),
    );
    expect(refused.code).toBe(Code.PermissionDenied);
    expect(refused.message).toContain("own");
  });

  it("answers 404 for unknown ids and for requests that are not jobs (draft, pending_review)", async () => {
    const operator = await verifiedOperator(exp);
    const me = requester();
    const { experiment: draft } = await exp
      .as(me)
      .createExperiment({ requestJson: JSON.stringify(bodies.open()), saveAsDraft: true });
    const { experiment: inReview } = await openExperiment(exp, bodies.custom());
    expect(inReview.status).toBe(ExperimentStatus.PENDING_REVIEW);
    for (const experimentId of ["exp_00000000000000000000000000", "nonsense", draft!.id, inReview.id])
      expect(
        (await failure(exp.as(operator.principal).claimExperiment({ experimentId, ...CLAIM }))).code,
      ).toBe(Code.NotFound);
  });

  it("answers 409 experiment_already_claimed once claimed, and invalid_state for a cancelled job", async () => {
    const claimed = await claimedExperiment(exp);
    const late = await verifiedOperator(exp);
    for (const who of [late, claimed.operator]) {
      const refused = await failure(
        exp.as(who.principal).claimExperiment({ experimentId: claimed.experiment.id, ...CLAIM }),
      );
      expect(refused).toMatchObject({ code: Code.AlreadyExists, reason: "experiment_already_claimed" });
      expect(refused.details).toEqual({ status: "claimed", allowed_from: ["open"] });
    }

    const { requester: me, experiment: opened } = await openExperiment(exp);
    await exp.as(me).cancelExperiment({ experimentId: opened.id, reason: "no longer needed" });
    const refused = await failure(
      exp.as(late.principal).claimExperiment({ experimentId: opened.id, ...CLAIM }),
    );
    expect(refused).toMatchObject({ code: Code.FailedPrecondition, reason: "invalid_state" });
    expect(refused.details).toEqual({ status: "cancelled", allowed_from: ["open"] });
  });

  it("tells an operator that may not claim why (403, failed filters), never the experiment's state", async () => {
    const claimed = await claimedExperiment(exp);
    const completed = await approvedExperiment(exp);
    const { requester: me, experiment: cancelled } = await openExperiment(exp);
    await exp.as(me).cancelExperiment({ experimentId: cancelled.id, reason: "no longer needed" });
    const unverified = await verifiedOperator(exp, { status: "onboarding", experimentTypes: [] });
    const unqualified = await verifiedOperator(exp, { experimentTypes: ["QPCR_EXPRESSION"] });
    for (const [who, filters] of [
      [unverified, ["operator_status", "competency"]],
      [unqualified, ["competency"]],
    ] as const) {
      for (const experimentId of [claimed.experiment.id, completed.experiment.id, cancelled.id]) {
        const refused = await failure(exp.as(who.principal).claimExperiment({ experimentId, ...CLAIM }));
        expect(refused).toMatchObject({ code: Code.PermissionDenied, reason: "forbidden" });
        expect(refused.details.failed_filters).toEqual(filters);
        expect(refused.details).not.toHaveProperty("status");
        expect(refused.details).not.toHaveProperty("allowed_from");
        expect(refused.message).not.toMatch(/claimed|completed|cancelled/);
      }
    }
  });

  it("answers 404 for a private experiment the operator cannot see once it is no longer open", async () => {
    for (const privacy of ["private", "delayed_12mo"]) {
      const body = { ...bodies.open(), privacy };
      const taken = await claimedExperiment(exp, { body });
      const { requester: me, experiment: withdrawn } = await openExperiment(exp, body);
      await exp.as(me).cancelExperiment({ experimentId: withdrawn.id, reason: "no longer needed" });
      const eligible = await verifiedOperator(exp);
      for (const experimentId of [taken.experiment.id, withdrawn.id]) {
        const refused = await failure(exp.as(eligible.principal).claimExperiment({ experimentId, ...CLAIM }));
        expect(refused.code).toBe(Code.NotFound);
        expect(refused.details).not.toHaveProperty("status");
      }
      // Its operator sees it, so the state is no news to it.
      const again = await failure(
        exp.as(taken.operator.principal).claimExperiment({ experimentId: taken.experiment.id, ...CLAIM }),
      );
      expect(again).toMatchObject({ code: Code.AlreadyExists, reason: "experiment_already_claimed" });
      expect(again.details).toEqual({ status: "claimed", allowed_from: ["open"] });
    }
  });

  it("lets one operator at capacity 1 win only one of two concurrent claims", async () => {
    const operator = await verifiedOperator(exp, { maxConcurrentJobs: 1 });
    const first = await openExperiment(exp);
    const second = await openExperiment(exp);
    const outcomes = await Promise.allSettled(
      [first, second].map((o) =>
        exp.as(operator.principal).claimExperiment({ experimentId: o.experiment.id, ...CLAIM }),
      ),
    );
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const lost = outcomes.find((o) => o.status === "rejected")!;
    const refused = await failure(Promise.reject((lost as PromiseRejectedResult).reason));
    expect(refused.code).toBe(Code.PermissionDenied);
    expect(refused.details.failed_filters).toEqual(["capacity"]);
    const active = await exp.db
      .selectFrom("experiments")
      .select("id")
      .where("operator_id", "=", operator.eligibility.operatorId)
      .execute();
    expect(active).toHaveLength(1);
  });

  it("frees capacity when a job is submitted", async () => {
    const operator = await verifiedOperator(exp, { maxConcurrentJobs: 1 });
    const first = await openExperiment(exp);
    const second = await openExperiment(exp);
    await exp.as(operator.principal).claimExperiment({ experimentId: first.experiment.id, ...CLAIM });
    expect(
      (
        await failure(
          exp.as(operator.principal).claimExperiment({ experimentId: second.experiment.id, ...CLAIM }),
        )
      ).details.failed_filters,
    ).toEqual(["capacity"]);
    await exp.as(operator.principal).submitResults({
      experimentId: first.experiment.id,
      resultsJson: JSON.stringify({ hypothesis_supported: true, confidence_level: "high", summary: "Done." }),
    });
    const { experiment } = await exp
      .as(operator.principal)
      .claimExperiment({ experimentId: second.experiment.id, ...CLAIM });
    expect(experiment!.status).toBe(ExperimentStatus.CLAIMED);
  });

  it("starts work: the assigned operator only (requester and staff 403, others 404), from claimed only", async () => {
    const claimed = await claimedExperiment(exp);
    const id = claimed.experiment.id;
    expect((await failure(exp.as(claimed.requester).startExperiment({ experimentId: id }))).code).toBe(
      Code.PermissionDenied,
    );
    expect((await failure(exp.as(staff()).startExperiment({ experimentId: id }))).code).toBe(
      Code.PermissionDenied,
    );
    const stranger = await verifiedOperator(exp);
    expect((await failure(exp.as(stranger.principal).startExperiment({ experimentId: id }))).code).toBe(
      Code.NotFound,
    );

    const { experiment } = await exp.as(claimed.operator.principal).startExperiment({ experimentId: id });
    expect(experiment).toMatchObject({
      status: ExperimentStatus.IN_PROGRESS,
      version: claimed.experiment.version + 1n,
    });
    expect(Number(experiment!.startedAt!.seconds) * 1000).toBe(
      Math.floor(exp.clock.now().getTime() / 1000) * 1000,
    );
    const again = await failure(exp.as(claimed.operator.principal).startExperiment({ experimentId: id }));
    expect(again).toMatchObject({ code: Code.FailedPrecondition, reason: "invalid_state" });
    expect(again.details).toEqual({ status: "in_progress", allowed_from: ["claimed"] });
    const started = (await outboxEvents(exp.db, id)).filter(
      (e) => e.subject === "petri.experiments.experiment_started",
    );
    expect(started).toHaveLength(1);
    expect(started[0]!.payload.experiment.status).toBe(ExperimentStatus.IN_PROGRESS);
  });

  it("records issues on the experiment for the requester, with IssueReported", async () => {
    const claimed = await claimedExperiment(exp);
    const id = claimed.experiment.id;
    const { experiment, issue } = await exp.as(claimed.operator.principal).reportIssue({
      experimentId: id,
      description: "  The compound arrived thawed.  ",
      severity: "High",
    });
    expect(issue).toMatchObject({ description: "The compound arrived thawed.", severity: "high" });
    expect(issue!.id).toMatch(/^iss_/);
    expect(experiment!.issues).toEqual([issue]);
    expect(experiment!.version).toBe(claimed.experiment.version + 1n);
    const seen = await exp.as(claimed.requester).getExperiment({ experimentId: id });
    expect(seen.experiment!.issues).toEqual([issue]);

    const events = (await outboxEvents(exp.db, id)).filter(
      (e) => e.subject === "petri.experiments.issue_reported",
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.payload.issue.id).toBe(issue!.id);
    expect(events[0]!.payload.experiment.issues).toHaveLength(1);

    const invalid = await failure(
      exp
        .as(claimed.operator.principal)
        .reportIssue({ experimentId: id, description: "short", severity: "meh" }),
    );
    expect(invalid.violations.map((v) => v.field)).toEqual(["description", "severity"]);
    expect(
      (
        await failure(
          exp
            .as(claimed.requester)
            .reportIssue({ experimentId: id, description: "not my job to say", severity: "low" }),
        )
      ).code,
    ).toBe(Code.PermissionDenied);
  });

  it("takes at most 100 issues per experiment (409 issue_limit_reached), and none after results", async () => {
    const claimed = await claimedExperiment(exp);
    const id = claimed.experiment.id;
    const issues = Array.from({ length: MAX_ISSUES_PER_EXPERIMENT - 1 }, (_, i) => ({
      id: `iss_${String(i).padStart(26, "0")}`,
      experiment_id: id,
      description: `earlier issue number ${i}`,
      severity: "low" as const,
      reported_by: claimed.operator.principal.accountId,
      reported_at: exp.clock.now(),
    }));
    await exp.db.insertInto("experiment_issues").values(issues).execute();
    const report = { experimentId: id, description: "one more thing to say", severity: "low" };
    await exp.as(claimed.operator.principal).reportIssue(report);
    const refused = await failure(exp.as(claimed.operator.principal).reportIssue(report));
    expect(refused).toMatchObject({ code: Code.AlreadyExists, reason: "issue_limit_reached" });

    const other = await claimedExperiment(exp);
    await exp.as(other.operator.principal).submitResults({
      experimentId: other.experiment.id,
      resultsJson: JSON.stringify({ hypothesis_supported: true, confidence_level: "high", summary: "Done." }),
    });
    const late = await failure(
      exp.as(other.operator.principal).reportIssue({ ...report, experimentId: other.experiment.id }),
    );
    expect(late).toMatchObject({ code: Code.FailedPrecondition, reason: "invalid_state" });
    expect(late.details).toEqual({ status: "pending_approval", allowed_from: ["claimed", "in_progress"] });
  });
});
