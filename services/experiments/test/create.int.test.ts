/**
 * POST /experiments through the contract: open, pending_review and draft; 422 with the
 * error list; 403 for unsafe requests; submitting a draft; the outbox events of each; and the
 * pure RPCs (validate, estimate, templates). Same scenarios on PostgreSQL and PGlite.
 */
import { Code } from "@connectrpc/connect";
import { ExperimentStatus } from "@petri/contracts/experiments";
import { newId } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import {
  SYSTEM,
  bodies,
  ENGINES,
  experimentsOn,
  failure,
  json,
  outboxEvents,
  requester,
  staff,
} from "./support/harness.js";
import { verifiedOperator } from "./support/marketplace.js";

describe.each(ENGINES)("creating experiments on %s", (engine) => {
  const exp = experimentsOn(engine);

  it("records the source hypothesis on the experiment and its ExperimentSubmitted; it is part of the key's request", async () => {
    const me = requester();
    const sourceHypothesisId = newId("hyp");
    const create = (source: string, key = "from-hypothesis") =>
      exp.as(me).createExperiment({
        requestJson: json(bodies.open()),
        idempotencyKey: key,
        sourceHypothesisId: source,
      });
    const { experiment } = await create(sourceHypothesisId);
    expect(experiment!.sourceHypothesisId).toBe(sourceHypothesisId);
    const { experiment: read } = await exp.as(me).getExperiment({ experimentId: experiment!.id });
    expect(read!.sourceHypothesisId).toBe(sourceHypothesisId);
    const [submitted] = await outboxEvents(exp.db, experiment!.id);
    expect(submitted!.payload.experiment.sourceHypothesisId).toBe(sourceHypothesisId);
    expect((await create(sourceHypothesisId)).replayed).toBe(true);
    // The same key and body from another hypothesis is another request.
    expect(await failure(create(newId("hyp")))).toMatchObject({
      code: Code.InvalidArgument,
      reason: "idempotency_key_reused",
    });
    expect(await failure(create("not-a-hypothesis", "other-key"))).toMatchObject({
      code: Code.InvalidArgument,
    });
    // Without a source nothing is recorded.
    const { experiment: plain } = await exp.as(me).createExperiment({ requestJson: json(bodies.open()) });
    expect(plain!.sourceHypothesisId).toBe("");
  });

  it("stores a valid request as open, priced, with its hold, and records Submitted + Opened", async () => {
    const me = requester();
    const { experiment, warnings, replayed } = await exp
      .as(me)
      .createExperiment({ requestJson: json(bodies.open()) });
    expect(replayed).toBe(false);
    expect(Array.isArray(warnings)).toBe(true);
    expect(experiment!.id).toMatch(/^exp_[0-9a-z]{26}$/);
    expect(experiment).toMatchObject({
      requesterAccountId: me.accountId,
      status: ExperimentStatus.OPEN,
      experimentType: "MIC_MBC_ASSAY",
      reviewReasons: [],
      version: 1n,
    });
    const estimate = experiment!.estimate!;
    expect(estimate.costLowCents).toBeLessThanOrEqual(estimate.costTypicalCents);
    expect(estimate.costTypicalCents).toBeLessThanOrEqual(estimate.costHighCents);
    expect(estimate.costTypicalCents).toBeGreaterThan(0n);
    const b = estimate.breakdown!;
    expect(
      b.materialsCents + b.laborCents + b.equipmentCents + b.platformFeeCents + b.privacyPremiumCents,
    ).toBe(estimate.costTypicalCents);
    // No operator has been projected yet: nobody can take it.
    expect(estimate.operatorAvailability).toBe("none");
    expect(estimate.turnaroundDays).toBe(estimate.turnaroundStandardDays);
    expect(experiment!.holdAmountCents).toBe(estimate.costTypicalCents);
    expect(experiment!.createdAt).toEqual(experiment!.submittedAt);
    const stored = JSON.parse(experiment!.requestJson) as Record<string, any>;
    expect(stored.turnaround_budget.budget_max_usd).toBe(300); // normalised from constraints.budget_max_usd

    const events = await outboxEvents(exp.db, experiment!.id);
    expect(events.map((e) => e.subject)).toEqual([
      "petri.experiments.experiment_submitted",
      "petri.experiments.experiment_opened",
    ]);
    expect(events.every((e) => e.version === 1)).toBe(true);
    expect(events[0]!.payload.holdAmountCents).toBe(estimate.costTypicalCents);
    expect(events[0]!.payload.experiment.id).toBe(experiment!.id);
    expect(events[1]!.payload.experiment.status).toBe(ExperimentStatus.OPEN);

    const row = await exp.db
      .selectFrom("experiments")
      .selectAll()
      .where("id", "=", experiment!.id)
      .executeTakeFirstOrThrow();
    expect(row.raw_request).toEqual(bodies.open());
    expect(row.hold_cents).toBe(Number(estimate.costTypicalCents));
  });

  it("sends a request staff must look at to pending_review with its reasons, and records only Submitted", async () => {
    const { experiment } = await exp.as(requester()).createExperiment({ requestJson: json(bodies.custom()) });
    expect(experiment!.status).toBe(ExperimentStatus.PENDING_REVIEW);
    expect(experiment!.reviewReasons).toEqual(["custom_protocol"]);
    const events = await outboxEvents(exp.db, experiment!.id);
    expect(events.map((e) => e.subject)).toEqual(["petri.experiments.experiment_submitted"]);
    expect(events[0]!.payload.holdAmountCents).toBe(experiment!.estimate!.costTypicalCents);
  });

  it("saves an incomplete request as a draft (no hold, ExperimentDrafted only) and submits it later", async () => {
    const me = requester();
    const partial = bodies.open();
    delete partial.hypothesis;
    const { experiment: draft, warnings } = await exp
      .as(me)
      .createExperiment({ requestJson: json(partial), saveAsDraft: true });
    expect(draft!.status).toBe(ExperimentStatus.DRAFT);
    expect(draft!.holdAmountCents).toBe(0n);
    expect(draft!.submittedAt).toBeUndefined();
    expect(warnings).toContainEqual(
      expect.objectContaining({ path: "hypothesis", code: "missing_required" }),
    );
    const drafted = await outboxEvents(exp.db, draft!.id);
    expect(drafted.map((e) => e.subject)).toEqual(["petri.experiments.experiment_drafted"]);
    expect(drafted[0]!.payload.experiment).toMatchObject({ id: draft!.id, status: ExperimentStatus.DRAFT });

    // Submitting the incomplete draft is a 422 naming what is missing; nothing changes.
    const refused = await failure(exp.as(me).submitDraft({ experimentId: draft!.id }));
    expect(refused.code).toBe(Code.InvalidArgument);
    expect(refused.reason).toBe("validation_failed");
    expect(refused.violations).toContainEqual(
      expect.objectContaining({ field: "hypothesis", code: "missing_required" }),
    );

    // A draft saved complete submits: it is validated again, priced and opened.
    const { experiment: complete } = await exp
      .as(me)
      .createExperiment({ requestJson: json(bodies.open()), saveAsDraft: true });
    expect(complete!.status).toBe(ExperimentStatus.DRAFT);
    const submitted = await exp.as(me).submitDraft({ experimentId: complete!.id });
    expect(submitted.experiment).toMatchObject({ status: ExperimentStatus.OPEN, version: 2n });
    expect(submitted.experiment!.holdAmountCents).toBe(submitted.experiment!.estimate!.costTypicalCents);
    expect(submitted.experiment!.submittedAt).toBeDefined();
    const events = await outboxEvents(exp.db, complete!.id);
    expect(events.map((e) => [e.subject, e.version])).toEqual([
      ["petri.experiments.experiment_drafted", 1],
      ["petri.experiments.experiment_submitted", 2],
      ["petri.experiments.experiment_opened", 2],
    ]);
    // Only once: a submitted draft is no longer a draft.
    const again = await failure(exp.as(me).submitDraft({ experimentId: complete!.id }));
    expect(again).toMatchObject({ code: Code.FailedPrecondition, reason: "invalid_state" });
    expect(again.details).toMatchObject({ status: "open", allowed_from: ["draft"] });
  });

  it("refuses an invalid request with 422 and every error as a field violation", async () => {
    const body = bodies.open();
    body.experiment_type = "PCR_MAGIC";
    delete body.title;
    body.surprise = 1;
    const refused = await failure(exp.as(requester()).createExperiment({ requestJson: json(body) }));
    expect(refused.code).toBe(Code.InvalidArgument);
    expect(refused.reason).toBe("validation_failed");
    expect(refused.violations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: "experiment_type", code: "invalid_experiment_type" }),
        expect.objectContaining({ field: "title", code: "missing_required" }),
        expect.objectContaining({ field: "surprise", code: "invalid_value" }),
      ]),
    );
    for (const text of ["{", "[1,2]", '"text"']) {
      const bad = await failure(exp.as(requester()).createExperiment({ requestJson: text }));
      expect(bad).toMatchObject({ code: Code.InvalidArgument, reason: "validation_failed" });
    }
    expect(
      await exp.db
        .selectFrom("experiments")
        .select("id")
        .where("experiment_type", "=", "PCR_MAGIC")
        .execute(),
    ).toEqual([]);
  });

  it("refuses an unsafe request with 403 safety_rejected, its flags and findings, and stores nothing", async () => {
    const me = requester();
    const body = { ...bodies.open(), compliance: { bsl: "BSL3" } };
    const refused = await failure(exp.as(me).createExperiment({ requestJson: json(body) }));
    expect(refused.code).toBe(Code.PermissionDenied);
    expect(refused.reason).toBe("safety_rejected");
    expect(refused.details.safety_flags).toEqual(["bsl_level_exceeded", "safety_rejected"]);
    expect(refused.details.findings).toContainEqual(
      expect.objectContaining({ flag: "bsl_level_exceeded", path: "compliance.bsl" }),
    );
    // Also as a draft: unsafe content is never stored.
    const draft = await failure(exp.as(me).createExperiment({ requestJson: json(body), saveAsDraft: true }));
    expect(draft.reason).toBe("safety_rejected");
    const listed = await exp.as(me).listExperiments({});
    expect(listed.total).toBe(0n);
  });

  it("acts only for accounts: the gateway's system principal and anonymous callers are refused", async () => {
    expect((await failure(exp.as(SYSTEM).createExperiment({ requestJson: json(bodies.open()) }))).code).toBe(
      Code.PermissionDenied,
    );
    expect((await failure(exp.as(SYSTEM).listExperiments({}))).code).toBe(Code.PermissionDenied);
    expect((await failure(exp.as().createExperiment({ requestJson: json(bodies.open()) }))).code).toBe(
      Code.Unauthenticated,
    );
  });

  it("validates, estimates and lists templates without storing anything", async () => {
    const me = requester();
    const valid = await exp.as(me).validateExperiment({ requestJson: json(bodies.open()) });
    expect(valid).toMatchObject({ valid: true, errors: [], safetyFlags: [] });
    const invalid = await exp.as(me).validateExperiment({
      requestJson: json({ ...bodies.open(), compliance: { bsl: "BSL-4" } }),
    });
    expect(invalid.valid).toBe(false);
    expect(invalid.safetyFlags).toEqual(["bsl_level_exceeded", "safety_rejected"]);
    expect(invalid.errors).toContainEqual(
      expect.objectContaining({ path: "compliance.bsl", code: "safety_violation" }),
    );
    const unreadable = await exp.as(me).validateExperiment({ requestJson: "{" });
    expect(unreadable).toMatchObject({
      valid: false,
      errors: [expect.objectContaining({ path: "", code: "invalid_value" })],
    });

    const hypothesis = await exp.as(me).validateHypothesis({ statement: "Drugs are good?" });
    expect(hypothesis.valid).toBe(true);
    expect(hypothesis.suggestions.length).toBeGreaterThan(0);
    expect((await exp.as(me).validateHypothesis({})).valid).toBe(false);

    const { estimate } = await exp
      .as(me)
      .estimateExperiment({ requestJson: json({ experiment_type: "QPCR_EXPRESSION" }) });
    expect(estimate!.costTypicalCents).toBeGreaterThan(0n);
    expect(estimate!.operatorAvailability).toBe("none");

    const listed = await exp.as(me).listTemplates({ category: "microbiology" });
    const items = listed.templatesJson.map((text) => JSON.parse(text) as Record<string, unknown>);
    expect(items.length).toBeGreaterThan(0);
    expect(
      items.every(
        (item) => item.category === "microbiology" && typeof item.estimated_cost_range === "string",
      ),
    ).toBe(true);
    const first = items[0]!.id as string;
    const full = JSON.parse((await exp.as(me).getTemplate({ templateId: first })).templateJson) as Record<
      string,
      unknown
    >;
    expect(full).toMatchObject({
      id: first,
      parameters: expect.any(Array),
      protocol_steps: expect.any(Array),
    });
    expect((await failure(exp.as(me).getTemplate({ templateId: "no-such-template-v1" }))).code).toBe(
      Code.NotFound,
    );
    expect((await failure(exp.as(SYSTEM).listTemplates({}))).code).toBe(Code.PermissionDenied);
    expect((await exp.as(staff()).listTemplates({})).templatesJson.length).toBeGreaterThanOrEqual(8);
  });

  it("counts operators of the operator_eligibility projection who could take the job, for availability", async () => {
    const zoneLab = { experimentTypes: ["ZONE_OF_INHIBITION"] };
    for (let i = 0; i < 3; i += 1) await verifiedOperator(exp, zoneLab);
    // Not counted: another type only, suspended, no capacity left.
    await verifiedOperator(exp, { experimentTypes: ["QPCR_EXPRESSION"] });
    await verifiedOperator(exp, { ...zoneLab, status: "suspended" });
    await verifiedOperator(exp, { ...zoneLab, currentCapacity: "none" });
    const body = bodies.of("ZONE_OF_INHIBITION");
    const withOperators = await exp.as(requester()).estimateExperiment({ requestJson: json(body) });
    expect(withOperators.estimate!.operatorAvailability).toBe("medium");
    const { experiment } = await exp.as(requester()).createExperiment({ requestJson: json(body) });
    expect(experiment!.estimate!.operatorAvailability).toBe(withOperators.estimate!.operatorAvailability);
  });
});
