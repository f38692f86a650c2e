/**
 * Translate as the cloudlabs service answers it alone: experiments events published on the bus
 * reach experiment_views through the service's own consumer, and TranslateExperiment reads
 * that view, waiting a bounded time for an experiment whose event is still in flight (or whose
 * submission is). PostgreSQL and PGlite.
 */
import { create } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { events } from "@petri/contracts";
import { ExperimentSchema, ExperimentStatus } from "@petri/contracts/experiments";
import { buildEnvelope } from "@petri/events";
import { fullRequests } from "@petri/fixtures";
import { newId } from "@petri/service-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { experimentViewOf, findExperimentView, upsertExperimentView } from "@petri/events";
import {
  Backend,
  type CloudLabs,
  ENGINES,
  failure,
  requester,
  startCloudLabs,
  storedExperiment,
} from "./support/harness.js";

const SLL = "petri-sll-sandbox";
// Long enough for a loaded machine to apply an event published during the wait.
const WAIT = { timeoutMs: 3_000, pollMs: 100 };

describe.each(ENGINES)("cloud labs' experiment views on %s", (engine) => {
  let backend: Backend;
  let cl: CloudLabs;

  beforeAll(async () => {
    backend = await Backend.open(engine);
    cl = await startCloudLabs(backend.database, undefined, WAIT);
  });
  afterAll(async () => {
    await cl?.stop();
    await backend?.close();
  });

  const translate = (principal: ReturnType<typeof requester>, experimentId: string) =>
    cl.as(principal).translateExperiment({ experimentId, providerId: SLL });

  it("waits for an experiment published while the call is made, then translates it", async () => {
    const owner = requester();
    const experiment = storedExperiment(owner, fullRequests.MIC_MBC_ASSAY);
    const translating = translate(owner, experiment.id);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await cl.bus.publish(
      buildEnvelope(
        events.experiments.experimentOpened,
        { experiment },
        { aggregateId: experiment.id, aggregateVersion: 1, occurredAt: cl.clock.now() },
      ),
    );
    const { submission } = await translating;
    expect(submission).toMatchObject({ status: "pending", experimentId: experiment.id });
  });

  it("a draft is INVALID_ARGUMENT until it is submitted, and an older event never rolls it back", async () => {
    const owner = requester();
    const draft = storedExperiment(owner, fullRequests.MIC_MBC_ASSAY, ExperimentStatus.DRAFT);
    await cl.know(draft);
    expect(await failure(translate(owner, draft.id))).toMatchObject({ code: Code.InvalidArgument });
    const opened = create(ExperimentSchema, { ...draft, status: ExperimentStatus.OPEN, version: 2n });
    await cl.know(opened);
    expect((await translate(owner, draft.id)).submission).toMatchObject({ experimentId: draft.id });
    await upsertExperimentView(cl.db, experimentViewOf(draft)!);
    expect(await findExperimentView(cl.db, draft.id)).toMatchObject({ status: "open", version: 2 });
  });

  // How long the wait lasts is readSettled's (service-kit, with fake timers); here, its outcome.
  it("an experiment never heard of is NOT_FOUND after the bounded wait, as is text that is no id", async () => {
    const owner = requester();
    expect(await failure(translate(owner, newId("exp")))).toMatchObject({ code: Code.NotFound });
    expect(await failure(translate(owner, "not-an-experiment"))).toMatchObject({ code: Code.NotFound });
  });
});
