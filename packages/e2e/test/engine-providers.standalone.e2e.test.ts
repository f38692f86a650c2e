/**
 * The engine with its optional providers configured through the environment, in standalone
 * mode, against local fakes on 127.0.0.1 (an OpenAI-compatible server and the Europe PMC /
 * doi.org / Crossref trio): a run's hypothesis is written by the LLM, its sources are only the
 * retrieved candidates whose DOI resolved and whose title matched, the trace says so, and a
 * failing LLM fails the run with its code instead of falling back silently.
 */
import {
  FAKE_DOIS,
  FAKE_LLM_MODEL,
  FAKE_LLM_VALID_REPLY,
  type FakeLiteratureServer,
  type FakeLlmServer,
  startFakeLiteratureServer,
  startFakeLlmServer,
} from "@petri/fixtures/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ExperimentsTarget, newRequester } from "./experiments.scenarios.js";
import { eventually } from "./marketplace.scenarios.js";
import { STAFF, startStandaloneHost } from "./support/hosts.js";

describe("engine providers (LLM + literature fakes), standalone mode", () => {
  let llm: FakeLlmServer;
  let literature: FakeLiteratureServer;
  let host: Awaited<ReturnType<typeof startStandaloneHost>>;
  let target: ExperimentsTarget;

  beforeAll(async () => {
    llm = await startFakeLlmServer();
    literature = await startFakeLiteratureServer({ scenario: "mixed" });
    host = await startStandaloneHost("petri-e2e-engine-providers", {
      PETRI_ENGINE_LLM_BASE_URL: llm.url,
      PETRI_ENGINE_LLM_MODEL: FAKE_LLM_MODEL,
      PETRI_ENGINE_LLM_API_KEY: "test-key-not-secret",
      PETRI_ENGINE_LLM_TIMEOUT_MS: "2000",
      PETRI_ENGINE_LLM_MAX_RETRIES: "1",
      PETRI_ENGINE_LITERATURE: "europepmc",
      PETRI_ENGINE_CONTACT_EMAIL: "engine-tests@example.org",
      PETRI_ENGINE_EUROPEPMC_BASE_URL: literature.europePmcBaseUrl,
      PETRI_ENGINE_DOI_BASE_URL: literature.doiBaseUrl,
      PETRI_ENGINE_CROSSREF_BASE_URL: literature.crossrefBaseUrl,
      PETRI_ENGINE_LITERATURE_TIMEOUT_MS: "2000",
      // Cloud labs' interpret reads intakes with the same fake model.
      PETRI_CLOUDLABS_LLM_BASE_URL: llm.url,
      PETRI_CLOUDLABS_LLM_MODEL: FAKE_LLM_MODEL,
      PETRI_CLOUDLABS_LLM_TIMEOUT_MS: "2000",
      PETRI_CLOUDLABS_LLM_MAX_RETRIES: "0",
    });
    target = { baseUrls: [host.petri.url], staff: STAFF };
  });

  afterAll(async () => {
    await host?.stop();
    await llm?.close();
    await literature?.close();
  });

  async function runToEnd(client: Awaited<ReturnType<typeof newRequester>>, body: object) {
    const started = await client.call("POST", "/cloud-labs/engine/start", body);
    expect(started.status, started.text).toBe(202);
    return eventually("the run to finish", async () => {
      const run = await client.call("GET", `/cloud-labs/engine/runs/${started.body.run_id}`);
      return ["COMPLETED", "FAILED"].includes(run.body.status) ? run.body : undefined;
    });
  }

  it("a run: the LLM writes the hypothesis, only verified sources are listed, the draft still validates", async () => {
    const client = await newRequester(target, "engine-providers");
    const run = await runToEnd(client, { query: "MIC of ciprofloxacin against E. coli ATCC 25922" });
    expect(run.status, JSON.stringify(run)).toBe("COMPLETED");
    const result = run.result;
    expect(result).toMatchObject({
      engine: `openai-compatible:${FAKE_LLM_MODEL}`,
      literature_grounded: true,
      experiment_type: "MIC_MBC_ASSAY",
      hypothesis: {
        statement: FAKE_LLM_VALID_REPLY.statement,
        null_hypothesis: FAKE_LLM_VALID_REPLY.null_hypothesis,
      },
    });
    expect(result.sources.map((s: { doi: string }) => s.doi).sort()).toEqual(
      [FAKE_DOIS.verified, FAKE_DOIS.secondVerified].sort(),
    );
    for (const source of result.sources) expect(source.verification.doi_resolves).toBe(true);
    const dois = JSON.stringify(result);
    expect(dois).not.toContain(FAKE_DOIS.unresolvable);
    expect(dois).not.toContain(FAKE_DOIS.titleMismatch);
    const actions = result.reasoning_trace.map((s: { action: string }) => s.action);
    expect(actions).toContain("literature:search");
    expect(actions).toContain("llm:hypothesis_written");
    expect(result.intake_draft.hypothesis.statement).toBe(FAKE_LLM_VALID_REPLY.statement);
    const validation = await client.call("POST", "/validate", result.intake_draft);
    expect(validation.body, validation.text).toMatchObject({ valid: true, errors: [] });
    // The LLM was asked with the key, the model and temperature 0; the key never reaches a response.
    const asked = llm.requests.find((r) => r.path.endsWith("/chat/completions"));
    expect(asked?.headers.authorization).toBe("Bearer test-key-not-secret");
    expect(JSON.stringify(run)).not.toContain("test-key-not-secret");

    // A literature review is possible now that a literature provider is configured.
    const review = await runToEnd(client, { query: "ciprofloxacin E. coli", job_type: "literature_review" });
    expect(review.status).toBe("COMPLETED");
    expect(review.result.sources.length).toBeGreaterThan(0);
  });

  it("a failing LLM fails the run with its code; the synchronous endpoint answers 503", async () => {
    llm.setScenario("server_error");
    try {
      const client = await newRequester(target, "engine-providers-fail");
      const run = await runToEnd(client, { query: "IC50 of doxorubicin on HeLa cells" });
      expect(run).toMatchObject({ status: "FAILED", error_code: "llm_unavailable", result: null });
      expect(run.error).not.toContain("fake-upstream-body");
      const sync = await client.call("POST", "/cloud-labs/engine", {
        query: "IC50 of doxorubicin on HeLa cells",
      });
      expect(sync.status).toBe(503);
      expect(sync.body.error.code).toBe("llm_unavailable");
    } finally {
      llm.setScenario("valid");
    }
  });

  it("cloud-lab interpret: the model's reading when it fits the schema, the rules' (with a note) when not", async () => {
    const client = await newRequester(target, "interpret-llm");
    const intake = {
      experiment_type: "MIC_MBC_ASSAY",
      hypothesis: { statement: "Compound A inhibits E. coli ATCC 25922 at 8 ug/mL or less." },
      mic_mbc_assay: {
        target_organisms: ["E. coli ATCC 25922"],
        test_compounds: [{ name: "Compound A", concentrations_ug_ml: [64, 32, 16, 8, 4, 2, 1, 0.5] }],
      },
    };
    const reading = {
      experiment_type: "MIC_MBC_ASSAY",
      parameters: {
        organisms: [{ name: "Escherichia coli", strain: "ATCC 25922" }],
        compounds: [{ name: "Compound A", concentrations: [64, 32, 16, 8, 4, 2, 1, 0.5], unit: "µg/mL" }],
        replicates: 3,
        incubation_hours: 18,
        detection_method: "absorbance",
      },
      confidence: 0.9,
      notes: ["Fixture reading of the fake model."],
    };
    llm.setScenario("valid", { reply: reading });
    try {
      const read = await client.call("POST", "/cloud-labs/interpret", { intake });
      expect(read.status, read.text).toBe(200);
      expect(read.body).toEqual({
        interpreter: `openai-compatible:${FAKE_LLM_MODEL}`,
        interpretation: reading,
      });
    } finally {
      llm.setScenario("valid");
    }
    // The fake now answers with a hypothesis, which is no interpretation: the rules answer.
    const fallback = await client.call("POST", "/cloud-labs/interpret", { intake });
    expect(fallback.status, fallback.text).toBe(200);
    expect(fallback.body.interpreter).toBe("rules");
    expect(fallback.body.interpretation.experiment_type).toBe("MIC_MBC_ASSAY");
    expect(fallback.body.interpretation.notes.at(-1)).toMatch(/language model did not answer/);
  });
});
