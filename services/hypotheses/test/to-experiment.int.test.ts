/**
 * to-experiment, through the RPCs and the ExperimentSubmitted handler: the prepared request and
 * its stable key, the owner-only and status rules, and the link that makes a hypothesis USED
 * and counts each experiment once however often it is recorded (the gateway's call and the
 * event). PostgreSQL and PGlite. Saving from an experiment: from-experiment.int.test.ts.
 */
import { create } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { ExperimentSchema, ExperimentSubmittedSchema } from "@petri/contracts/experiments";
import { events } from "@petri/contracts";
import { buildEnvelope } from "@petri/events";
import { newId } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { applyExperimentSubmitted } from "../src/events/experiment-submitted.js";
import {
  ENGINES,
  type Hypotheses,
  failure,
  hypothesesOfBlock,
  logger,
  requester,
} from "./support/harness.js";

const DRAFT = {
  experiment_type: "QPCR_EXPRESSION",
  qpcr: { targets: [{ gene_symbol: "IL6" }], housekeeping_genes: ["GAPDH"], number_of_samples: 6 },
  turnaround_budget: { budget_max_usd: 350 },
};

describe.each(ENGINES)("to-experiment on %s", (engine) => {
  let h: Hypotheses;
  hypothesesOfBlock(engine, (started) => (h = started));

  async function saved(owner = requester()) {
    const { hypothesis } = await h.as(owner).createHypothesis({
      title: "PX-17 raises IL6",
      statement: "PX-17 at 10 uM raises IL6 mRNA at least 2-fold in HepG2 cells.",
      nullHypothesis: "PX-17 does not change IL6 mRNA.",
      experimentType: "QPCR_EXPRESSION",
      intakeDraftJson: JSON.stringify(DRAFT),
      engineAgent: "",
      engineQuery: "",
      engineResponseJson: "",
    });
    return { owner, hypothesis: hypothesis! };
  }

  it("prepares the merged request with a key that a retry reproduces", async () => {
    const { owner, hypothesis } = await saved();
    const ask = (additional: object, key = "") =>
      h.as(owner).prepareExperimentFromHypothesis({
        hypothesisId: hypothesis.id,
        additionalFieldsJson: JSON.stringify(additional),
        idempotencyKey: key,
      });
    const first = await ask({ privacy: "private" });
    expect(JSON.parse(first.requestJson)).toMatchObject({
      ...DRAFT,
      title: "PX-17 raises IL6",
      privacy: "private",
      hypothesis: { statement: hypothesis.statement, null_hypothesis: hypothesis.nullHypothesis },
    });
    expect((await ask({ privacy: "private" })).idempotencyKey).toBe(first.idempotencyKey);
    expect((await ask({ privacy: "open" })).idempotencyKey).not.toBe(first.idempotencyKey);
    expect((await ask({ privacy: "private" }, "mine-1")).idempotencyKey).not.toBe(first.idempotencyKey);
    expect(await failure(ask([] as never))).toMatchObject({ code: Code.InvalidArgument });
  });

  it("is the owner's only, and not from an ARCHIVED hypothesis", async () => {
    const { owner, hypothesis } = await saved();
    const request = { hypothesisId: hypothesis.id, additionalFieldsJson: "", idempotencyKey: "" };
    expect(await failure(h.as(requester()).prepareExperimentFromHypothesis(request))).toMatchObject({
      code: Code.NotFound,
    });
    const experimentId = newId("exp");
    expect(
      await failure(
        h.as(requester()).linkExperimentToHypothesis({ hypothesisId: hypothesis.id, experimentId }),
      ),
    ).toMatchObject({ code: Code.NotFound });
    await h.as(owner).archiveHypothesis({ hypothesisId: hypothesis.id });
    expect(await failure(h.as(owner).prepareExperimentFromHypothesis(request))).toMatchObject({
      code: Code.FailedPrecondition,
      reason: "invalid_state",
      details: { status: "ARCHIVED", allowed_from: ["DRAFT", "USED"] },
    });
  });

  it("counts each experiment once, from the RPC and the event alike, and the hypothesis becomes USED", async () => {
    const { owner, hypothesis } = await saved();
    const first = newId("exp");
    const link = (experimentId: string) =>
      h.as(owner).linkExperimentToHypothesis({ hypothesisId: hypothesis.id, experimentId });
    const linked = (await link(first)).hypothesis!;
    expect(linked).toMatchObject({ status: "USED", experimentsCount: 1, version: 2n });
    expect((await link(first)).hypothesis).toMatchObject({
      status: "USED",
      experimentsCount: 1,
      version: 2n,
    });

    const event = (experimentId: string, requesterAccountId = owner.accountId) =>
      create(ExperimentSubmittedSchema, {
        experiment: create(ExperimentSchema, {
          id: experimentId,
          requesterAccountId,
          sourceHypothesisId: hypothesis.id,
        }),
      });
    // As the consumer runs it: in a transaction, which also records the hypothesis's event.
    const apply = (submitted: ReturnType<typeof event>) =>
      h.db.transaction().execute((trx) => applyExperimentSubmitted(trx, submitted, h.clock.now(), logger));
    await apply(event(first));
    const second = newId("exp");
    await apply(event(second));
    await apply(event(second));
    // An experiment of another account naming this hypothesis changes nothing.
    await apply(event(newId("exp"), requester().accountId));
    const { hypothesis: read } = await h.as(owner).getHypothesis({ hypothesisId: hypothesis.id });
    expect(read).toMatchObject({ status: "USED", experimentsCount: 2 });
    // USED is no longer editable.
    expect(
      await failure(h.as(owner).updateHypothesis({ hypothesisId: hypothesis.id, title: "x" })),
    ).toMatchObject({
      code: Code.FailedPrecondition,
    });
  });

  it("records the link from an ExperimentSubmitted published on the bus (the consumer is wired)", async () => {
    const { owner, hypothesis } = await saved();
    const experimentId = newId("exp");
    const envelope = buildEnvelope(
      events.experiments.experimentSubmitted,
      {
        experiment: create(ExperimentSchema, {
          id: experimentId,
          requesterAccountId: owner.accountId,
          sourceHypothesisId: hypothesis.id,
        }),
      },
      { aggregateId: experimentId, aggregateVersion: 1, occurredAt: h.clock.now() },
    );
    await h.bus.publish(envelope);
    for (let round = 0; round < 300; round += 1) {
      const { hypothesis: read } = await h.as(owner).getHypothesis({ hypothesisId: hypothesis.id });
      if (read!.experimentsCount === 1) {
        expect(read).toMatchObject({ status: "USED", experimentsCount: 1 });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error("the ExperimentSubmitted event was never applied");
  });
});
