/**
 * POST /hypotheses/{id}/to-experiment as the experiments service answers it alone
 * (CreateExperimentFromHypothesis, D349): HypothesisSaved events published on the bus reach
 * hypothesis_views through the service's own consumer; the RPC reads that view (waiting a
 * bounded time for a hypothesis saved a moment ago), lets only the owner use it, refuses an
 * ARCHIVED one and an incomplete request, and creates the experiment as CreateExperiment does,
 * with the key the hypotheses service used to derive. PostgreSQL and PGlite.
 */
import { Code } from "@connectrpc/connect";
import { events } from "@petri/contracts";
import { ExperimentStatus } from "@petri/contracts/experiments";
import type { HypothesisSaved } from "@petri/contracts/hypotheses";
import { buildEnvelope } from "@petri/events";
import { type Principal, newId } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { findHypothesisView } from "../src/db/hypothesis-views.js";
import { experimentRequestFor, toExperimentIdempotencyKey } from "../src/domain/from-hypothesis/index.js";
import { hypothesisViewOf } from "../src/events/hypothesis-saved.js";
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

// Long enough for a loaded machine to apply an event published during the wait.
const WAIT = { timeoutMs: 3_000, pollMs: 100 };
const STATEMENT = "PX-17 at 10 uM inhibits growth of E. coli ATCC 25922.";

describe.each(ENGINES)("to-experiment from the hypothesis view on %s", (engine) => {
  const exp = experimentsOn(engine, { hypothesisViewWait: WAIT });

  /** A hypothesis as HypothesisSaved carries it: by default complete enough to open an experiment. */
  function hypothesisOf(
    owner: Principal,
    fields: Partial<{
      status: string;
      version: bigint;
      experimentType: string;
      intakeDraftJson: string;
    }> = {},
  ) {
    const draft = bodies.open();
    return {
      id: newId("hyp"),
      ownerAccountId: owner.accountId,
      title: "PX-17 inhibits E. coli",
      statement: STATEMENT,
      nullHypothesis: "",
      experimentType: String(draft.experiment_type),
      status: "DRAFT",
      intakeDraftJson: json(draft),
      version: 1n,
      ...fields,
    };
  }

  async function publish(hypothesis: ReturnType<typeof hypothesisOf>) {
    await exp.bus.publish(
      buildEnvelope(
        events.hypotheses.hypothesisSaved,
        { hypothesis },
        {
          aggregateId: hypothesis.id,
          aggregateVersion: Number(hypothesis.version),
          occurredAt: exp.clock.now(),
        },
      ),
    );
  }

  const convert = (principal: Principal, hypothesisId: string, additional: object | string = "", key = "") =>
    exp.as(principal).createExperimentFromHypothesis({
      hypothesisId,
      additionalFieldsJson: typeof additional === "string" ? additional : json(additional),
      idempotencyKey: key,
    });

  it("waits for a hypothesis saved a moment ago, then creates its owner's experiment from it; a retry replays", async () => {
    const owner = requester();
    const hypothesis = hypothesisOf(owner);
    // The call comes first; the event is published while it waits.
    const converting = convert(owner, hypothesis.id, { privacy: "private" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await publish(hypothesis);
    const first = await converting;
    expect(first.replayed).toBe(false);
    expect(first.experiment).toMatchObject({
      requesterAccountId: owner.accountId,
      status: ExperimentStatus.OPEN,
      sourceHypothesisId: hypothesis.id,
    });
    const stored = JSON.parse(first.experiment!.requestJson);
    expect(stored).toMatchObject({ privacy: "private", hypothesis: { statement: STATEMENT } });
    const [submitted] = await outboxEvents(exp.db, first.experiment!.id);
    expect(submitted!.payload.experiment.sourceHypothesisId).toBe(hypothesis.id);

    // Same hypothesis, same additional fields: the first experiment again.
    const again = await convert(owner, hypothesis.id, { privacy: "private" });
    expect(again).toMatchObject({ replayed: true, experiment: { id: first.experiment!.id } });
    // The key is the one PrepareExperimentFromHypothesis derived: a retry through a gateway of
    // the previous build (CreateExperiment with the prepared request and key) replays too.
    const view = (await findHypothesisView(exp.db, hypothesis.id))!;
    const request = experimentRequestFor(view, { privacy: "private" });
    const old = await exp.as(owner).createExperiment({
      requestJson: json(request),
      idempotencyKey: toExperimentIdempotencyKey(hypothesis.id, "", request),
      sourceHypothesisId: hypothesis.id,
    });
    expect(old).toMatchObject({ replayed: true, experiment: { id: first.experiment!.id } });

    // Other additional fields, or a key of the caller's: another experiment, replayed in turn.
    const other = await convert(owner, hypothesis.id, { privacy: "open" });
    expect(other.experiment!.id).not.toBe(first.experiment!.id);
    const keyed = await convert(owner, hypothesis.id, { privacy: "private" }, "mine-1");
    expect(keyed.experiment!.id).not.toBe(first.experiment!.id);
    expect(await convert(owner, hypothesis.id, { privacy: "private" }, "mine-1")).toMatchObject({
      replayed: true,
      experiment: { id: keyed.experiment!.id },
    });
  });

  it("is the owner's only: anyone else, staff included, and an unknown hypothesis are NOT_FOUND", async () => {
    const owner = requester();
    const hypothesis = hypothesisOf(owner);
    await publish(hypothesis);
    for (const other of [requester(), staff()])
      expect(await failure(convert(other, hypothesis.id))).toMatchObject({
        code: Code.NotFound,
        message: expect.stringContaining(`hypothesis ${hypothesis.id} was not found`),
      });
    // After the bounded wait; text that is no hypothesis id at once.
    expect(await failure(convert(owner, newId("hyp")))).toMatchObject({ code: Code.NotFound });
    expect(await failure(convert(owner, "not-a-hypothesis"))).toMatchObject({ code: Code.NotFound });
  });

  it("an ARCHIVED hypothesis is FAILED_PRECONDITION, also archived a moment before; an older event never rolls it back", async () => {
    const owner = requester();
    const hypothesis = hypothesisOf(owner);
    await publish(hypothesis);
    await expect.poll(async () => (await findHypothesisView(exp.db, hypothesis.id))?.version).toBe(1);
    // Archived a moment before the call: the call waits for the view to apply it.
    await publish({ ...hypothesis, status: "ARCHIVED", version: 3n });
    expect(await failure(convert(owner, hypothesis.id))).toMatchObject({
      code: Code.FailedPrecondition,
      reason: "invalid_state",
      details: { status: "ARCHIVED" },
    });
    await publish({ ...hypothesis, status: "USED", version: 2n });
    expect(await failure(convert(owner, hypothesis.id))).toMatchObject({
      code: Code.FailedPrecondition,
      reason: "invalid_state",
      details: { status: "ARCHIVED" },
    });
    expect(hypothesisViewOf({ hypothesis } as HypothesisSaved)).toMatchObject({ nullHypothesis: null });
  });

  it("an incomplete request is INVALID_ARGUMENT naming what is missing; bad additional fields too", async () => {
    const owner = requester();
    const hypothesis = hypothesisOf(owner, { experimentType: "QPCR_EXPRESSION", intakeDraftJson: "" });
    await publish(hypothesis);
    const refused = await failure(convert(owner, hypothesis.id));
    expect(refused).toMatchObject({ code: Code.InvalidArgument, reason: "validation_failed" });
    expect(refused.violations).toContainEqual(
      expect.objectContaining({ field: "qpcr", code: "missing_required" }),
    );
    expect(await failure(convert(owner, hypothesis.id, "[1]"))).toMatchObject({
      code: Code.InvalidArgument,
      violations: [expect.objectContaining({ field: "additional_fields" })],
    });
  });
});
