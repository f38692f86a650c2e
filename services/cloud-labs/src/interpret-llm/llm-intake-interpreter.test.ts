import { inspect } from "node:util";
import { ApiKey, LlmError } from "@petri/llm";
import { specialRequests } from "@petri/fixtures";
import {
  FAKE_LLM_MODEL,
  FAKE_UPSTREAM_BODY_MARKER,
  chatBodyOf,
  startFakeLlmServer,
} from "@petri/fixtures/fake-llm";
import { rejectionOf, useFakeServer } from "@petri/fixtures/fake-server-tests";
import { describe, expect, it, vi } from "vitest";
import type { IntakeInterpreter } from "../app/interpret-intake.js";
import { interpretIntake } from "../domain/interpret/index.js";
import type { Interpretation } from "../domain/plan.js";
import { LlmIntakeInterpreter, type LlmIntakeInterpreterOptions } from "./llm-intake-interpreter.js";

const API_KEY = "sk-cloudlabs-test-key-must-never-leak";

const read = interpretIntake(specialRequests.micCloudLab);
if ("problems" in read) throw new Error("the fixture intake must be readable");
const rules: Interpretation = read.interpretation;

/** The fake model's reading: the rules' with a note of its own (a synthetic fixture). */
const MODEL_READING: Interpretation = {
  ...rules,
  confidence: 0.9,
  notes: [...rules.notes, "Fixture note of the fake language model fake.server."],
};

/** Violates the Interpretation's bounds in several places at once. */
const INVALID_READING = {
  experiment_type: "NOT_A_TYPE",
  parameters: {
    organisms: [{ name: "", strain: null }],
    compounds: [{ name: "PX-17", concentrations: [-1], unit: "mg/L" }],
    replicates: 0,
    incubation_hours: 10_000,
    detection_method: "smell",
  },
  confidence: 2,
  notes: "not a list",
};

const fake = useFakeServer(
  () => startFakeLlmServer({ validReply: MODEL_READING, invalidReply: INVALID_READING }),
  "valid",
);

function interpreter(overrides: Partial<LlmIntakeInterpreterOptions> = {}): LlmIntakeInterpreter {
  return new LlmIntakeInterpreter({
    baseUrl: fake.server.url,
    apiKey: new ApiKey(API_KEY),
    model: FAKE_LLM_MODEL,
    // Generous for answers on a loaded machine; the hang tests shorten it.
    timeoutMs: 2000,
    maxRetries: 1,
    sleep: fake.sleep,
    ...overrides,
  });
}

const signal = () => new AbortController().signal;

const llmError = (promise: Promise<unknown>) => rejectionOf(promise, LlmError);

const bodyOf = (index: number) => chatBodyOf(fake.server, index);

describe("LlmIntakeInterpreter", () => {
  it("is the interpret use case's IntakeInterpreter, identified by its model", () => {
    const subject: IntakeInterpreter = interpreter();
    expect(subject.id).toBe(`openai-compatible:${FAKE_LLM_MODEL}`);
  });

  it("returns the model's checked reading, having sent the intake and the rules' reading", async () => {
    expect(await interpreter().interpret(specialRequests.micCloudLab, rules, signal())).toEqual(
      MODEL_READING,
    );
    expect(fake.server.requests).toHaveLength(1);
    expect(fake.server.requests[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    const body = bodyOf(0);
    expect(body.model).toBe(FAKE_LLM_MODEL);
    expect(body.response_format.type).toBe("json_schema");
    expect(body.response_format.json_schema?.name).toBe("intake_interpretation");
    expect(body.response_format.json_schema?.strict).toBe(true);
    expect(body.response_format.json_schema?.schema.required).toEqual([
      "experiment_type",
      "parameters",
      "confidence",
      "notes",
    ]);
    const user = body.messages[1]!.content;
    expect(user).toContain(JSON.stringify(specialRequests.micCloudLab.title));
    expect(user).toContain(`<reference>\n${JSON.stringify(rules)}`);
  });

  it("repairs a schema-violating reading once, feeding back the problems", async () => {
    fake.server.setScenario("invalid_then_valid");
    expect(await interpreter().interpret(specialRequests.micCloudLab, rules, signal())).toEqual(
      MODEL_READING,
    );
    expect(fake.server.requests).toHaveLength(2);
    const repair = bodyOf(1).messages[3]!.content;
    expect(repair).toContain("- experiment_type: must be one of");
    expect(repair).toContain("- parameters.replicates:");
    expect(repair).toContain("- notes:");
  });

  it("fails with llm_invalid_output when the repaired reading still violates the schema", async () => {
    fake.server.setScenario("always_invalid");
    const error = await llmError(interpreter().interpret(specialRequests.micCloudLab, rules, signal()));
    expect(error.code).toBe("llm_invalid_output");
    expect(error.message).toContain("experiment_type: must be one of");
    expect(fake.server.requests).toHaveLength(2);
  });

  it("does not accept a reading of another experiment type than the intake states", async () => {
    fake.server.setScenario("valid", { reply: { ...MODEL_READING, experiment_type: "CUSTOM" } });
    const error = await llmError(interpreter().interpret(specialRequests.micCloudLab, rules, signal()));
    expect(error.code).toBe("llm_invalid_output");
    expect(error.message).toContain("the intake states MIC_MBC_ASSAY");
    expect(bodyOf(1).messages[3]!.content).toContain(
      "- experiment_type: the intake states MIC_MBC_ASSAY; keep it",
    );
  });

  it("retries a 500 as configured, then fails with llm_unavailable", async () => {
    fake.server.setScenario("server_error");
    const error = await llmError(interpreter().interpret(specialRequests.micCloudLab, rules, signal()));
    expect(error.code).toBe("llm_unavailable");
    expect(error.message).toContain("HTTP 500");
    expect(fake.server.requests).toHaveLength(2);
    expect(fake.sleeps).toEqual([250]);
  });

  it("reports a server that hangs past the timeout as timeout, without retrying", async () => {
    fake.server.setScenario("hang");
    const error = await llmError(
      interpreter({ timeoutMs: 200 }).interpret(specialRequests.micCloudLab, rules, signal()),
    );
    expect(error.code).toBe("timeout");
    expect(error.message).toContain("200 ms");
    expect(fake.server.requests).toHaveLength(1);
  });

  it("names its own settings when the server refuses the request", async () => {
    const error = await llmError(
      interpreter({ baseUrl: `${fake.server.url}/nowhere` }).interpret(
        specialRequests.micCloudLab,
        rules,
        signal(),
      ),
    );
    expect(error.message).toContain("check PETRI_CLOUDLABS_LLM_BASE_URL and PETRI_CLOUDLABS_LLM_MODEL");
  });

  it("stops with the caller's reason when the caller gives up", async () => {
    fake.server.setScenario("hang");
    const controller = new AbortController();
    const reason = new Error("interpret deadline passed");
    const interpreting = interpreter({ timeoutMs: 10_000 }).interpret(
      specialRequests.micCloudLab,
      rules,
      controller.signal,
    );
    await vi.waitFor(() => expect(fake.server.requests).toHaveLength(1));
    controller.abort(reason);
    await expect(interpreting).rejects.toBe(reason);
  });

  describe("secrets", () => {
    const hostile = { ...specialRequests.micCloudLab, title: "Secret-ish fixture title of request PT-0001" };

    it.each(["always_invalid", "server_error", "hang"] as const)(
      "keeps the key, the intake and upstream bodies out of the %s error",
      async (scenario) => {
        fake.server.setScenario(scenario);
        const error = await llmError(interpreter({ timeoutMs: 300 }).interpret(hostile, rules, signal()));
        const text = `${error.message} ${String(error.stack)}`;
        expect(text).not.toContain(API_KEY);
        expect(text).not.toContain(hostile.title);
        expect(text).not.toContain(FAKE_UPSTREAM_BODY_MARKER);
      },
    );

    it("does not show the key when the interpreter is inspected or serialised", () => {
      const subject = interpreter();
      expect(inspect(subject, { depth: 10, showHidden: true })).not.toContain(API_KEY);
      expect(JSON.stringify(subject)).not.toContain(API_KEY);
    });

    it("sends no key when none is configured", async () => {
      await interpreter({ apiKey: undefined }).interpret(specialRequests.micCloudLab, rules, signal());
      expect(fake.server.requests[0]!.headers.authorization).toBe("Bearer no-key-configured");
    });
  });
});
