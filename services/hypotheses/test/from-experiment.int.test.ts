/**
 * POST /hypotheses/from-experiment as the hypotheses service answers it alone: experiments
 * events published on the bus reach experiment_views through the service's own consumer; the
 * RPC reads that view (waiting a bounded time for an experiment not applied yet), lets only
 * the requester save from it (anyone else: NOT_FOUND), and refuses a draft (FAILED_PRECONDITION)
 * until the event that submits it arrives. PostgreSQL and PGlite.
 */
import { create } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { type EventSpec, events } from "@petri/contracts";
import { type Experiment, ExperimentSchema, ExperimentStatus } from "@petri/contracts/experiments";
import { buildEnvelope } from "@petri/events";
import { type Principal, newId } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { experimentViewOf, findExperimentView, upsertExperimentView } from "@petri/events";
import { ENGINES, type Hypotheses, failure, hypothesesOfBlock, requester, staff } from "./support/harness.js";

// Long enough for a loaded machine to apply an event published during the wait.
const WAIT = { timeoutMs: 3_000, pollMs: 100 };
const REQUEST = {
  experiment_type: "QPCR_EXPRESSION",
  title: "IL6 after PX-17",
  hypothesis: { statement: "PX-17 raises IL6.", null_hypothesis: "PX-17 does not change IL6." },
  communication_preferences: { webhook_url: "https://example.test/hook" },
};

describe.each(ENGINES)("from-experiment on %s", (engine) => {
  let h: Hypotheses;
  hypothesesOfBlock(engine, (started) => (h = started), { experimentViewWait: WAIT });

  function experimentOf(owner: Principal, status: ExperimentStatus, version: number, id = newId("exp")) {
    return create(ExperimentSchema, {
      id,
      requesterAccountId: owner.accountId,
      status,
      title: "IL6 after PX-17",
      experimentType: "QPCR_EXPRESSION",
      requestJson: JSON.stringify(REQUEST),
      version: BigInt(version),
    });
  }

  /** As the experiments service records them: an open submission with its Opened (D344). */
  async function publish(spec: EventSpec, experiment: Experiment) {
    const opens =
      spec === events.experiments.experimentSubmitted && experiment.status === ExperimentStatus.OPEN;
    for (const recorded of opens ? [spec, events.experiments.experimentOpened] : [spec])
      await h.bus.publish(
        buildEnvelope(recorded, { experiment } as never, {
          aggregateId: experiment.id,
          aggregateVersion: Number(experiment.version),
          occurredAt: h.clock.now(),
        }),
      );
  }

  const save = (principal: Principal, experimentId: string, title = "") =>
    h.as(principal).createHypothesisFromExperiment({ experimentId, title });

  it("waits for a just-published experiment, then saves its hypothesis for its requester only", async () => {
    const owner = requester();
    const experiment = experimentOf(owner, ExperimentStatus.OPEN, 1);
    // The call comes first; the event is published while it waits.
    const saving = save(owner, experiment.id);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await publish(events.experiments.experimentSubmitted, experiment);
    const { hypothesis } = await saving;
    expect(hypothesis).toMatchObject({
      status: "DRAFT",
      experimentsCount: 0,
      title: "IL6 after PX-17",
      statement: "PX-17 raises IL6.",
      nullHypothesis: "PX-17 does not change IL6.",
      sourceExperimentId: experiment.id,
    });
    expect(JSON.parse(hypothesis!.intakeDraftJson)).not.toHaveProperty("communication_preferences");
    expect(await findExperimentView(h.db, experiment.id)).toMatchObject({
      requesterAccountId: owner.accountId,
      status: "open",
      version: 1,
    });

    // Anyone else, staff included, gets the 404 of an experiment they may not see.
    for (const other of [requester(), staff()])
      expect(await failure(save(other, experiment.id))).toMatchObject({ code: Code.NotFound });
  });

  it("a draft is FAILED_PRECONDITION until the event that submits it, and an older event never rolls it back", async () => {
    const owner = requester();
    const draft = experimentOf(owner, ExperimentStatus.DRAFT, 1);
    await publish(events.experiments.experimentDrafted, draft);
    expect(await failure(save(owner, draft.id))).toMatchObject({
      code: Code.FailedPrecondition,
      reason: "invalid_state",
      details: { status: "draft" },
    });

    const submitted = experimentOf(owner, ExperimentStatus.OPEN, 2, draft.id);
    const saving = save(owner, draft.id, "Mine");
    await publish(events.experiments.experimentSubmitted, submitted);
    expect((await saving).hypothesis).toMatchObject({ title: "Mine", sourceExperimentId: draft.id });

    await upsertExperimentView(h.db, experimentViewOf(draft)!);
    expect(await findExperimentView(h.db, draft.id)).toMatchObject({ status: "open", version: 2 });
  });

  // How long the wait lasts is readSettled's (service-kit, with fake timers); here, its outcome.
  it("an experiment never heard of is NOT_FOUND after the bounded wait, as is text that is no id", async () => {
    const owner = requester();
    expect(await failure(save(owner, newId("exp")))).toMatchObject({ code: Code.NotFound });
    expect(await failure(save(owner, "not-an-experiment"))).toMatchObject({ code: Code.NotFound });
  });
});
