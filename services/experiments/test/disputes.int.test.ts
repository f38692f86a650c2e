/**
 * Staff handling of disputes: the list (status filter, keyset pages), one dispute with the
 * results and the automatic acceptance evaluation, and the resolution (outcomes, amounts that
 * must add up to the hold, DisputeResolved with what the ledger needs).
 */
import { Code } from "@connectrpc/connect";
import {
  AcceptanceEvaluationSchema,
  ExperimentStatus,
  ResultsRecordSchema,
} from "@petri/contracts/experiments";
import { toRestJson } from "@petri/contracts/rest-json";
import { describe, expect, it } from "vitest";
import {
  ENGINES,
  bodies,
  experimentsOn,
  failure,
  jump,
  outboxEvents,
  requester,
  staff,
} from "./support/harness.js";
import { fullBody } from "./support/results.js";
import { type LoopExperiment, approvedExperiment, submittedExperiment } from "./support/loop.js";

const DISPUTE = {
  reason: "results_incomplete",
  description: "Replicate three of the plate reads is missing.",
};

describe.each(ENGINES)("disputes on %s", (engine) => {
  const exp = experimentsOn(engine);
  const reviewer = staff();

  async function disputed(from: "pending_approval" | "completed" = "pending_approval") {
    const loop: LoopExperiment =
      from === "completed" ? await approvedExperiment(exp) : await submittedExperiment(exp);
    const { dispute } = await exp
      .as(loop.requester)
      .disputeResults({ experimentId: loop.experiment.id, ...DISPUTE });
    return { ...loop, dispute: dispute! };
  }

  it("lists disputes for staff only, oldest first, by status, in keyset pages", async () => {
    // A second apart each: the fake clock would otherwise give them one created_at (ties go by id).
    const first = await disputed();
    await jump(exp, 1000);
    const second = await disputed();
    await jump(exp, 1000);
    const third = await disputed();
    await exp.as(reviewer).resolveDispute({ disputeId: second.dispute.id, outcome: "operator" });

    const pageOne = await exp.as(reviewer).listDisputes({ status: "open", limit: 1, includeTotal: true });
    expect(pageOne.disputes.map((d) => d.id)).toEqual([first.dispute.id]);
    expect(pageOne).toMatchObject({ total: 2n, hasTotal: true, hasMore: true });
    // Not asked for: not counted.
    expect(await exp.as(reviewer).listDisputes({ status: "open", limit: 1 })).toMatchObject({
      total: 0n,
      hasTotal: false,
      hasMore: true,
    });
    const pageTwo = await exp
      .as(reviewer)
      .listDisputes({ status: "open", limit: 1, cursor: pageOne.nextCursor });
    expect(pageTwo.disputes.map((d) => d.id)).toEqual([third.dispute.id]);
    expect(pageTwo).toMatchObject({ hasMore: false, nextCursor: "" });

    const resolved = await exp.as(reviewer).listDisputes({ status: "resolved" });
    expect(resolved.disputes.map((d) => d.id)).toContain(second.dispute.id);
    expect(resolved.disputes.every((d) => d.status === "resolved")).toBe(true);
    const all = await exp.as(reviewer).listDisputes({ includeTotal: true });
    expect(all.total).toBe(pageOne.total + resolved.total);

    expect((await failure(exp.as(first.requester).listDisputes({}))).code).toBe(Code.PermissionDenied);
    expect((await failure(exp.as(reviewer).listDisputes({ status: "closed" }))).violations[0]!.field).toBe(
      "status",
    );
    expect((await failure(exp.as(reviewer).listDisputes({ limit: 101 }))).code).toBe(Code.InvalidArgument);
    expect((await failure(exp.as(reviewer).listDisputes({ cursor: "bogus!" }))).code).toBe(
      Code.InvalidArgument,
    );
  });

  it("shows staff one dispute with the experiment, the results and the acceptance evaluation", async () => {
    const body = bodies.open();
    body.acceptance_criteria = {
      success_conditions: [
        { metric: "OD600", operator: "lt", threshold: 0.5, unit: "AU", description: "growth stays low" },
      ],
    };
    const submitted = await submittedExperiment(exp, fullBody(), { body });
    const { dispute } = await exp
      .as(submitted.requester)
      .disputeResults({ experimentId: submitted.experiment.id, ...DISPUTE });

    const view = await exp.as(reviewer).getDispute({ disputeId: dispute!.id });
    expect(view.dispute).toEqual(dispute);
    expect(view.experiment).toMatchObject({ id: submitted.experiment.id, status: ExperimentStatus.DISPUTED });
    const results = JSON.parse(view.resultsJson) as {
      status: string;
      raw_data_files: Array<{ url: string }>;
    };
    expect(results.status).toBe("disputed");
    expect(results.raw_data_files[0]!.url).toMatch(/^\/files\/fil_[0-9a-z]{26}\?expires=\d+&signature=/);
    // The signed URLs' expiry travels with them, as for GetResults: the URL's own expires.
    const expires = new URL(results.raw_data_files[0]!.url, "http://x").searchParams.get("expires");
    expect(view.urlsExpireAt?.seconds).toBe(BigInt(expires!));
    const evaluation = JSON.parse(view.evaluationJson) as Record<string, any>;
    // The typed forms say exactly what the JSON text says, key order included (D342).
    const nulls = { absent: "null" } as const;
    expect(JSON.stringify(toRestJson(ResultsRecordSchema, view.results!, nulls))).toBe(view.resultsJson);
    expect(JSON.stringify(toRestJson(AcceptanceEvaluationSchema, view.evaluation!, nulls))).toBe(
      view.evaluationJson,
    );
    expect(["criteria_met", "criteria_not_met", "indeterminate"]).toContain(evaluation.verdict);
    expect(evaluation.success_conditions).toHaveLength(1);
    expect(evaluation.success_conditions[0]).toMatchObject({
      metric: "OD600",
      outcome: "met",
      unit_check: "match",
    });

    expect((await failure(exp.as(submitted.requester).getDispute({ disputeId: dispute!.id }))).code).toBe(
      Code.PermissionDenied,
    );
    expect(
      (await failure(exp.as(reviewer).getDispute({ disputeId: "dsp_00000000000000000000000000" }))).code,
    ).toBe(Code.NotFound);
  });

  it("resolves a split that adds up to the hold; refuses one that does not (422)", async () => {
    const { dispute, experiment } = await disputed();
    const hold = experiment.holdAmountCents;
    const wrong = await failure(
      exp.as(reviewer).resolveDispute({
        disputeId: dispute.id,
        outcome: "split",
        requesterAmountCents: hold / 2n,
        operatorAmountCents: hold / 2n + 1n,
      }),
    );
    expect(wrong.code).toBe(Code.InvalidArgument);
    expect(wrong.violations[0]!.field).toBe("requester_amount_cents");

    const requesterShare = hold / 3n;
    const { dispute: resolved, experiment: after } = await exp.as(reviewer).resolveDispute({
      disputeId: dispute.id,
      outcome: "split",
      requesterAmountCents: requesterShare,
      operatorAmountCents: hold - requesterShare,
      note: "  Partial data delivered. ",
    });
    expect(resolved).toMatchObject({
      status: "resolved",
      outcome: "split",
      requesterAmountCents: requesterShare,
      operatorAmountCents: hold - requesterShare,
      resolutionNote: "Partial data delivered.",
      resolvedBy: reviewer.accountId,
      raisedFrom: "pending_approval",
    });
    expect(after).toMatchObject({ status: ExperimentStatus.RESOLVED, dispute: resolved });

    const events = (await outboxEvents(exp.db, experiment.id)).filter(
      (e) => e.subject === "petri.experiments.dispute_resolved",
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.payload.dispute).toMatchObject({
      outcome: "split",
      requesterAmountCents: requesterShare,
      operatorAmountCents: hold - requesterShare,
      raisedFrom: "pending_approval",
    });
    expect(events[0]!.payload.experiment.status).toBe(ExperimentStatus.RESOLVED);

    const again = await failure(
      exp.as(reviewer).resolveDispute({ disputeId: dispute.id, outcome: "operator" }),
    );
    expect(again).toMatchObject({ code: Code.FailedPrecondition, reason: "invalid_state" });
    expect(again.details).toEqual({ status: "resolved", allowed_from: ["open"] });
  });

  it("moves the whole hold to one side for requester and operator outcomes, also after approval", async () => {
    const before = await disputed();
    const { dispute: toRequester } = await exp.as(reviewer).resolveDispute({
      disputeId: before.dispute.id,
      outcome: "requester",
    });
    expect(toRequester).toMatchObject({
      requesterAmountCents: before.experiment.holdAmountCents,
      operatorAmountCents: 0n,
    });

    const after = await disputed("completed");
    expect(after.dispute.raisedFrom).toBe("completed");
    const { dispute: toOperator } = await exp.as(reviewer).resolveDispute({
      disputeId: after.dispute.id,
      outcome: "operator",
    });
    expect(toOperator).toMatchObject({
      requesterAmountCents: 0n,
      operatorAmountCents: after.experiment.holdAmountCents,
      raisedFrom: "completed",
    });
  });

  it("is for staff only, and validates outcome and note", async () => {
    const { dispute, requester: me } = await disputed();
    for (const who of [me, requester()])
      expect(
        (await failure(exp.as(who).resolveDispute({ disputeId: dispute.id, outcome: "requester" }))).code,
      ).toBe(Code.PermissionDenied);
    expect(
      (await failure(exp.as(reviewer).resolveDispute({ disputeId: dispute.id, outcome: "both" }))).code,
    ).toBe(Code.InvalidArgument);
    expect(
      (
        await failure(
          exp
            .as(reviewer)
            .resolveDispute({ disputeId: dispute.id, outcome: "requester", note: "x".repeat(5001) }),
        )
      ).violations[0]!.field,
    ).toBe("note");
    expect(
      (await failure(exp.as(reviewer).resolveDispute({ disputeId: "nope", outcome: "requester" }))).code,
    ).toBe(Code.NotFound);
  });
});
