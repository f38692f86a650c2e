/**
 * Cloud labs through the RPCs, on PostgreSQL and PGlite: the catalog; translate, validate and
 * interpret; a stored experiment translated into a submission that the worker sends to the
 * sandbox lab and follows to completed (simulated results, each change an event); cancel;
 * owner-only access; the raw data.
 */
import { Code } from "@connectrpc/connect";
import { metricSampler } from "@petri/fixtures/service-kit";
import { type Principal, metricsRegistry } from "@petri/service-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Backend,
  type CloudLabs,
  ENGINES,
  failure,
  requester,
  staff,
  startCloudLabs,
  storedExperiment,
} from "./support/harness.js";
import { IntakeInterpretationSchema } from "@petri/contracts/cloudlabs";
import { ABSENT_AS_NULL, toRestJson } from "@petri/contracts/rest-json";
import { ExperimentStatus } from "@petri/contracts/experiments";
import { fullRequests, specialRequests } from "@petri/fixtures";

const metricSample = metricSampler(metricsRegistry);

const SLL = "petri-sll-sandbox";
const AUTOPROTOCOL = "petri-microbiology-sandbox";
const MIC = fullRequests.MIC_MBC_ASSAY;

describe.each(ENGINES)("cloud labs on %s", (engine) => {
  let backend: Backend;
  let cl: CloudLabs;

  beforeAll(async () => {
    backend = await Backend.open(engine);
    cl = await startCloudLabs(backend.database);
  });
  afterAll(async () => {
    await cl?.stop();
    await backend?.close();
  });

  it("lists the providers with their full records and the types each runs", async () => {
    const me = requester();
    const { providers } = await cl.as(me).listProviders({});
    expect(providers.map((p) => p.protocolFormat).sort()).toEqual(
      expect.arrayContaining(["autoprotocol", "sll"]),
    );
    const { provider } = await cl.as(me).getProvider({ providerId: SLL });
    expect(provider).toMatchObject({ id: SLL, protocolFormat: "sll", status: "available" });
    expect(provider!.capabilities!.plateFormats.length).toBeGreaterThan(0);
    expect(Number(provider!.pricing!.baseCostUsd)).toBeGreaterThan(0);
    expect(await failure(cl.as(me).getProvider({ providerId: "nope" }))).toMatchObject({
      code: Code.NotFound,
    });
    const { supportedTypes } = await cl.as(me).listSupportedTypes({});
    expect(supportedTypes).toHaveLength(8);
    expect(await failure(cl.as().listProviders({}))).toMatchObject({ code: Code.Unauthenticated });
  });

  it("translates, validates and interprets an intake", async () => {
    const me = requester();
    const { translation } = await cl
      .as(me)
      .translateIntake({ intakeJson: JSON.stringify(MIC), providerId: AUTOPROTOCOL });
    expect(translation).toMatchObject({ providerId: AUTOPROTOCOL, protocolFormat: "autoprotocol" });
    const protocol = JSON.parse(translation!.protocolJson);
    expect(Object.keys(protocol.refs).length).toBeGreaterThan(0);
    expect(protocol.instructions.map((i: { op: string }) => i.op)).toEqual(
      expect.arrayContaining(["incubate", "absorbance"]),
    );
    expect(Number(translation!.estimatedCostUsd)).toBeGreaterThan(0);

    const sll = await cl.as(me).translateIntake({ intakeJson: JSON.stringify(MIC), providerId: SLL });
    const sllProtocol = JSON.parse(sll.translation!.protocolJson);
    expect(sllProtocol).toMatchObject({
      name: expect.any(String),
      steps: expect.any(Array),
      text: expect.any(String),
    });

    const valid = await cl.as(me).validateIntake({ intakeJson: JSON.stringify(MIC), providerId: SLL });
    expect(valid).toMatchObject({ valid: true, providerId: SLL, errors: [] });
    const sanger = await cl.as(me).validateIntake({
      intakeJson: JSON.stringify(fullRequests.SANGER_PLASMID_VERIFICATION),
      providerId: SLL,
    });
    expect(sanger.valid).toBe(false);
    expect(sanger.errors.map((e) => e.field)).toContain("experiment_type");
    expect(await failure(cl.as(me).translateIntake({ intakeJson: "{", providerId: SLL }))).toMatchObject({
      code: Code.InvalidArgument,
    });

    const read = await cl
      .as(me)
      .interpretIntake({ intakeJson: JSON.stringify(specialRequests.micCloudLab), providerId: "" });
    expect(read.interpreter).toBe("rules");
    const interpretation = JSON.parse(read.interpretationJson);
    expect(JSON.stringify(toRestJson(IntakeInterpretationSchema, read.interpretation!, ABSENT_AS_NULL))).toBe(
      read.interpretationJson,
    );
    expect(interpretation).toMatchObject({ experiment_type: "MIC_MBC_ASSAY" });
    expect(interpretation.parameters.organisms.length).toBeGreaterThan(0);
    expect(interpretation.confidence).toBeGreaterThan(0);
  });

  it("sends a translated experiment to the sandbox lab and follows it to completed, one event per change", async () => {
    const owner = requester();
    const ended = { provider: AUTOPROTOCOL, outcome: "completed" };
    const endedBefore = {
      count: await metricSample("petri_cloudlab_submission_duration_seconds_count", ended),
      sum: await metricSample("petri_cloudlab_submission_duration_seconds_sum", ended),
    };
    const experiment = storedExperiment(owner, MIC);
    await cl.know(experiment);
    const { submission, translation } = await cl
      .as(owner)
      .translateExperiment({ experimentId: experiment.id, providerId: AUTOPROTOCOL });
    expect(submission).toMatchObject({
      status: "pending",
      experimentId: experiment.id,
      adapter: "sandbox",
      protocolFormat: "autoprotocol",
    });
    expect(JSON.parse(submission!.translatedProtocolJson)).toEqual(JSON.parse(translation!.protocolJson));
    const id = submission!.id;
    const status = async () => (await cl.as(owner).getSubmission({ submissionId: id })).submission!;

    await cl.service.worker.drain();
    expect(await status()).toMatchObject({ status: "submitted", providerSubmissionId: `sandbox-${id}` });
    for (const next of ["queued", "running", "completed"]) {
      await cl.clock.advance(60_000);
      await cl.service.worker.drain();
      expect((await status()).status).toBe(next);
    }
    const done = await status();
    const results = JSON.parse(done.resultsJson);
    expect(results).toMatchObject({
      simulated: true,
      raw_data_url: `/cloud-labs/submissions/${id}/raw-data`,
    });
    expect(Object.keys(results.mic_values).length).toBeGreaterThan(0);
    expect(done.startedAt).toBeDefined();
    expect(done.completedAt).toBeDefined();
    // Created, then three polls a minute apart on the test clock: at least 3 minutes.
    expect(await metricSample("petri_cloudlab_submission_duration_seconds_count", ended)).toBe(
      endedBefore.count + 1,
    );
    expect(
      (await metricSample("petri_cloudlab_submission_duration_seconds_sum", ended)) - endedBefore.sum,
    ).toBeGreaterThanOrEqual(180);

    const events = await cl.db
      .selectFrom("outbox")
      .select(["subject", "aggregate_version"])
      .where("aggregate_id", "=", id)
      .orderBy("seq")
      .execute();
    expect(events.map((e) => e.subject)).toEqual(Array(5).fill("petri.cloudlabs.submission_status_changed"));
    expect(events.map((e) => Number(e.aggregate_version))).toEqual([1, 2, 3, 4, 5]);

    const raw = await cl.as(owner).getSubmissionRawData({ submissionId: id });
    expect(raw.contentType).toContain("text/csv");
    expect(new TextDecoder().decode(raw.data)).toMatch(/^well,reading,value\n/);

    expect(await failure(cl.as(owner).cancelSubmission({ submissionId: id }))).toMatchObject({
      code: Code.FailedPrecondition,
      reason: "invalid_state",
    });
    const listed = await cl.as(owner).listSubmissions({
      experimentId: experiment.id,
      providerId: "",
      status: "completed",
      limit: 0,
      offset: 0,
    });
    expect(listed.total).toBe(1n);
  });

  it("cancels, and keeps submissions to their owner", async () => {
    const owner = requester();
    const stranger = requester();
    const experiment = storedExperiment(owner, MIC);
    await cl.know(experiment);
    const translate = (principal: Principal, experimentId: string) =>
      cl.as(principal).translateExperiment({ experimentId, providerId: SLL });
    // Anyone but the requester (staff too) gets the 404 of an experiment they may not see, at once.
    for (const other of [stranger, staff()]) {
      const started = performance.now();
      expect(await failure(translate(other, experiment.id))).toMatchObject({ code: Code.NotFound });
      expect(performance.now() - started).toBeLessThan(2_000);
    }
    const draft = storedExperiment(owner, MIC, ExperimentStatus.DRAFT);
    await cl.know(draft);
    expect(await failure(translate(owner, draft.id))).toMatchObject({ code: Code.InvalidArgument });
    const { submission } = await translate(owner, experiment.id);
    const id = submission!.id;
    expect(await failure(cl.as(stranger).getSubmission({ submissionId: id }))).toMatchObject({
      code: Code.NotFound,
    });
    expect(await failure(cl.as(stranger).cancelSubmission({ submissionId: id }))).toMatchObject({
      code: Code.NotFound,
    });
    expect(
      (
        await cl
          .as(stranger)
          .listSubmissions({ experimentId: "", providerId: "", status: "", limit: 0, offset: 0 })
      ).total,
    ).toBe(0n);
    await cl.service.worker.drain();
    const { submission: cancelled } = await cl.as(owner).cancelSubmission({ submissionId: id });
    expect(cancelled).toMatchObject({ status: "cancelled" });
    // The worker leaves a cancelled submission alone.
    await cl.clock.advance(600_000);
    await cl.service.worker.drain();
    expect((await cl.as(owner).getSubmission({ submissionId: id })).submission!.status).toBe("cancelled");
    expect(await failure(cl.as(owner).getSubmissionRawData({ submissionId: id }))).toMatchObject({
      code: Code.NotFound,
    });
  });
});
