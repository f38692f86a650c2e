/**
 * Cloud labs through the gateway (issue 8): the providers, interpret, translate into SLL and
 * Autoprotocol, validate, and a stored experiment sent to the sandbox lab: translated into a
 * submission that moves to completed with (simulated) results and raw data; cancel; owner
 * only. Black box: only the public REST API.
 */
import { expect } from "vitest";
import { type ExperimentsTarget, micRequest, newRequester } from "./experiments.scenarios.js";
import { eventually } from "./marketplace.scenarios.js";

const MIC_CLOUD_INTAKE = {
  experiment_type: "MIC_MBC_ASSAY",
  hypothesis: { statement: "Compound A inhibits E. coli ATCC 25922 at 8 ug/mL or less." },
  mic_mbc_assay: {
    target_organisms: ["E. coli ATCC 25922"],
    test_compounds: [{ name: "Compound A", concentrations_ug_ml: [64, 32, 16, 8, 4, 2, 1, 0.5] }],
  },
};

export async function cloudLabsScenario(target: ExperimentsTarget): Promise<void> {
  const owner = await newRequester(target, "cloudlabs");
  const other = await newRequester(target, "cloudlabs-other");

  // The catalog.
  const providers = await owner.call("GET", "/cloud-labs/providers");
  expect(providers.status, providers.text).toBe(200);
  const formats = providers.body.providers.map((p: { protocol_format: string }) => p.protocol_format);
  expect(formats).toEqual(expect.arrayContaining(["sll", "autoprotocol"]));
  const sll = providers.body.providers.find(
    (p: { protocol_format: string }) => p.protocol_format === "sll",
  ).id;
  const autoprotocol = providers.body.providers.find(
    (p: { protocol_format: string; supported_experiment_types: string[] }) =>
      p.protocol_format === "autoprotocol" && p.supported_experiment_types.includes("MIC_MBC_ASSAY"),
  ).id;
  const detail = await owner.call("GET", `/cloud-labs/providers/${sll}`);
  expect(detail.body).toMatchObject({
    id: sll,
    capabilities: {
      plate_formats: expect.any(Array),
      detection_methods: expect.any(Array),
      cell_lines: expect.any(Array),
    },
    pricing: { base_cost_usd: expect.any(Number), per_sample_usd: expect.any(Number) },
    turnaround_days: { min: expect.any(Number), max: expect.any(Number) },
  });
  expect((await owner.call("GET", "/cloud-labs/providers/no-such-lab")).status).toBe(404);
  const types = await owner.call("GET", "/cloud-labs/supported-types");
  expect(types.body.supported_types).toHaveLength(8);

  // Interpret, translate, validate.
  const interpreted = await owner.call("POST", "/cloud-labs/interpret", {
    intake: MIC_CLOUD_INTAKE,
    provider_id: autoprotocol,
  });
  expect(interpreted.status, interpreted.text).toBe(200);
  expect(interpreted.body).toMatchObject({
    interpreter: "rules",
    interpretation: {
      experiment_type: "MIC_MBC_ASSAY",
      parameters: {
        compounds: [{ name: "Compound A", concentrations: expect.any(Array), unit: expect.any(String) }],
      },
    },
  });
  const ap = await owner.call("POST", "/cloud-labs/translate", {
    intake: micRequest(),
    provider_id: autoprotocol,
  });
  expect(ap.status, ap.text).toBe(200);
  expect(ap.body).toMatchObject({
    provider_id: autoprotocol,
    protocol_format: "autoprotocol",
    estimated_cost_usd: expect.any(Number),
  });
  const ops = ap.body.protocol.instructions.map((i: { op: string }) => i.op);
  expect(ops).toEqual(
    expect.arrayContaining(["liquid_handle", "cover", "incubate", "uncover", "absorbance"]),
  );
  const sllProtocol = await owner.call("POST", "/cloud-labs/translate", {
    intake: micRequest(),
    provider_id: sll,
  });
  expect(sllProtocol.status, sllProtocol.text).toBe(200);
  expect(sllProtocol.body.protocol).toMatchObject({
    name: expect.any(String),
    steps: expect.any(Array),
    text: expect.any(String),
  });
  const valid = await owner.call("POST", "/cloud-labs/validate", { intake: micRequest(), provider_id: sll });
  expect(valid.body).toMatchObject({ valid: true, provider_id: sll, warnings: expect.any(Array) });
  const invalid = await owner.call("POST", "/cloud-labs/validate", {
    intake: { ...micRequest(), compliance: { bsl: "BSL3" } },
    provider_id: sll,
  });
  expect(invalid.body.valid).toBe(false);
  expect(invalid.body.errors.length).toBeGreaterThan(0);
  expect((await owner.call("POST", "/cloud-labs/translate", { intake: [], provider_id: sll })).status).toBe(
    422,
  );

  // A stored experiment, sent to the sandbox lab.
  const created = await owner.call("POST", "/experiments", micRequest("MIC for the sandbox lab"));
  expect(created.status, created.text).toBe(201);
  const experimentId: string = created.body.experiment_id;
  expect(
    (
      await other.call("POST", `/cloud-labs/experiments/${experimentId}/translate`, {
        provider_id: autoprotocol,
      })
    ).status,
  ).toBe(404);
  const sent = await owner.call("POST", `/cloud-labs/experiments/${experimentId}/translate`, {
    provider_id: autoprotocol,
  });
  expect(sent.status, sent.text).toBe(201);
  expect(sent.body).toMatchObject({
    provider_id: autoprotocol,
    protocol_format: "autoprotocol",
    submission: { status: "pending", experiment_id: experimentId, adapter: "sandbox" },
  });
  const submissionId: string = sent.body.submission.id;
  const done = await eventually("the sandbox run to complete", async () => {
    const read = await owner.call("GET", `/cloud-labs/submissions/${submissionId}`);
    expect(read.status).toBe(200);
    return read.body.status === "completed" ? read.body : undefined;
  });
  expect(done).toMatchObject({
    provider_submission_id: `sandbox-${submissionId}`,
    results: { simulated: true, raw_data_url: `/cloud-labs/submissions/${submissionId}/raw-data` },
  });
  expect(Object.keys(done.results.mic_values)).toEqual(["ampicillin"]);
  const raw = await owner.fetch("GET", done.results.raw_data_url);
  expect(raw.status).toBe(200);
  expect(raw.headers.get("content-type")).toContain("text/csv");
  expect(await raw.text()).toMatch(/^well,reading,value\n/);
  expect((await other.call("GET", `/cloud-labs/submissions/${submissionId}`)).status).toBe(404);
  const listed = await owner.call(
    "GET",
    `/cloud-labs/submissions?experiment_id=${experimentId}&status=completed`,
  );
  expect(listed.body).toMatchObject({ total: 1, limit: 20, offset: 0 });

  // Cancel a second submission (or find it already completed and refused with 409).
  const second = await owner.call("POST", `/cloud-labs/experiments/${experimentId}/translate`, {
    provider_id: sll,
  });
  expect(second.status, second.text).toBe(201);
  const cancelled = await owner.call("POST", `/cloud-labs/submissions/${second.body.submission.id}/cancel`);
  if (cancelled.status === 200) expect(cancelled.body.status).toBe("cancelled");
  else expect(cancelled.body.error.code).toBe("invalid_state");
  expect(
    (await other.call("POST", `/cloud-labs/submissions/${second.body.submission.id}/cancel`)).status,
  ).toBe(404);
}
