import { inspect } from "node:util";
import { describe, expect, it, vi } from "vitest";
import { EngineProviderError } from "../../domain/generation.js";
import {
  FAKE_LLM_MODEL,
  FAKE_LLM_VALID_REPLY,
  FAKE_UPSTREAM_BODY_MARKER,
  type FakeLlmScenario,
  chatBodyOf,
  startFakeLlmServer,
} from "@petri/fixtures/engine";
import { rejectionOf, useFakeServer } from "@petri/fixtures/fake-server-tests";
import { FIXTURE_SOURCE, writerInput } from "../../../test/support/writer-input.js";
import { OpenAiCompatibleWriter, type OpenAiCompatibleWriterOptions } from "./openai-compatible-writer.js";

const API_KEY = "sk-petri-test-key-must-never-leak";

const fake = useFakeServer(startFakeLlmServer, "valid");

function writer(overrides: Partial<OpenAiCompatibleWriterOptions> = {}) {
  return new OpenAiCompatibleWriter({
    baseUrl: fake.server.url,
    apiKey: API_KEY,
    model: FAKE_LLM_MODEL,
    // Generous for answers on a loaded machine; the hang tests shorten it.
    timeoutMs: 2000,
    maxRetries: 2,
    sleep: fake.sleep,
    ...overrides,
  });
}

const signal = () => new AbortController().signal;

const providerError = (promise: Promise<unknown>) => rejectionOf(promise, EngineProviderError);

const bodyOf = (index: number) => chatBodyOf(fake.server, index);

describe("OpenAiCompatibleWriter", () => {
  it("asks once at temperature 0 for structured output and returns the checked reply", async () => {
    const written = await writer().write(writerInput({ sources: [FIXTURE_SOURCE] }), signal());
    expect(written).toEqual(FAKE_LLM_VALID_REPLY);
    expect(fake.server.requests).toHaveLength(1);
    const request = fake.server.requests[0]!;
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    const body = bodyOf(0);
    expect(body.model).toBe(FAKE_LLM_MODEL);
    expect(body.temperature).toBe(0);
    expect(body.response_format.type).toBe("json_schema");
    expect(body.response_format.json_schema?.strict).toBe(true);
    expect(body.response_format.json_schema?.schema.required).toContain("null_hypothesis");
    expect(body.messages[0]!.content).toContain("refer only to the numbered sources");
    expect(body.messages[1]!.content).toContain(`[1] ${FIXTURE_SOURCE.title}`);
  });

  it("is identified by its model", () => {
    expect(writer().id).toBe(`openai-compatible:${FAKE_LLM_MODEL}`);
  });

  it("repairs a schema-violating reply once, feeding back the problems", async () => {
    fake.server.setScenario("invalid_then_valid");
    expect(await writer().write(writerInput(), signal())).toEqual(FAKE_LLM_VALID_REPLY);
    expect(fake.server.requests).toHaveLength(2);
    const repair = bodyOf(1).messages;
    expect(repair).toHaveLength(4);
    expect(repair[2]!.role).toBe("assistant");
    expect(repair[3]!.content).toContain("statement:");
    expect(repair[3]!.content).toContain("rationale:");
  });

  it("fails with llm_invalid_output when the repaired reply still violates the schema", async () => {
    fake.server.setScenario("always_invalid");
    const error = await providerError(writer().write(writerInput(), signal()));
    expect(error.code).toBe("llm_invalid_output");
    expect(error.message).toContain("statement: must not be empty");
    expect(fake.server.requests).toHaveLength(2);
  });

  it("holds the model to the sources it was given, and drops a null experiment type", async () => {
    const citing = { ...FAKE_LLM_VALID_REPLY, rationale: "As reported in [2]." };
    fake.server.setScenario("valid", { reply: citing });
    const error = await providerError(writer().write(writerInput({ sources: [FIXTURE_SOURCE] }), signal()));
    expect(error.code).toBe("llm_invalid_output");
    expect(error.message).toContain("only sources [1] to [1] were given");

    fake.server.setScenario("valid", { reply: { ...FAKE_LLM_VALID_REPLY, experiment_type: null } });
    const { experiment_type: _type, ...text } = FAKE_LLM_VALID_REPLY;
    expect(await writer().write(writerInput(), signal())).toEqual(text);
  });

  it("fails with llm_invalid_output when the model answers prose twice", async () => {
    fake.server.setScenario("not_json");
    const error = await providerError(writer().write(writerInput(), signal()));
    expect(error.code).toBe("llm_invalid_output");
    expect(fake.server.requests).toHaveLength(2);
    expect(bodyOf(1).messages[3]!.content).toContain("not valid JSON");
  });

  it("reports a 429 after the retries as llm_rate_limited", async () => {
    fake.server.setScenario("rate_limited", { retryAfter: "1" });
    const error = await providerError(writer().write(writerInput(), signal()));
    expect(error.code).toBe("llm_rate_limited");
    expect(error.message).toContain("rate limiting the engine (HTTP 429)");
    expect(fake.server.requests).toHaveLength(3);
    expect(fake.sleeps).toEqual([1000, 1000]);
  });

  it("gives up at once when retry-after asks for longer than the cap", async () => {
    fake.server.setScenario("rate_limited", { retryAfter: "3600" });
    const error = await providerError(writer({ maxRetryDelayMs: 5000 }).write(writerInput(), signal()));
    expect(error.code).toBe("llm_rate_limited");
    expect(error.message).toContain("longer than the engine waits");
    expect(fake.server.requests).toHaveLength(1);
    expect(fake.sleeps).toEqual([]);
  });

  it("reports a 500 after the retries as llm_unavailable", async () => {
    fake.server.setScenario("server_error");
    const error = await providerError(writer({ maxRetries: 1 }).write(writerInput(), signal()));
    expect(error.code).toBe("llm_unavailable");
    expect(fake.server.requests).toHaveLength(2);
    expect(fake.sleeps).toEqual([250]);
  });

  it("reports a server that hangs past the timeout as timeout, without retrying", async () => {
    fake.server.setScenario("hang");
    const error = await providerError(writer({ timeoutMs: 200 }).write(writerInput(), signal()));
    expect(error.code).toBe("timeout");
    expect(error.message).toContain("200 ms");
    expect(fake.server.requests).toHaveLength(1);
  });

  it("falls back to json_object when the server rejects json_schema, and remembers it", async () => {
    fake.server.setScenario("reject_json_schema");
    const fallingBack = writer();
    expect(await fallingBack.write(writerInput(), signal())).toEqual(FAKE_LLM_VALID_REPLY);
    expect(fake.server.requests.map((_, index) => bodyOf(index).response_format.type)).toEqual([
      "json_schema",
      "json_object",
    ]);
    expect(fake.sleeps).toEqual([]);
    await fallingBack.write(writerInput(), signal());
    expect(bodyOf(2).response_format.type).toBe("json_object");
  });

  it("names the engine's settings when the server refuses the request", async () => {
    const error = await providerError(
      writer({ baseUrl: `${fake.server.url}/nowhere` }).write(writerInput(), signal()),
    );
    expect(error.code).toBe("llm_unavailable");
    expect(error.message).toContain("check PETRI_ENGINE_LLM_BASE_URL and PETRI_ENGINE_LLM_MODEL");
  });

  it("refuses a reply larger than the response cap, without retrying", async () => {
    const error = await providerError(writer({ maxResponseBytes: 100 }).write(writerInput(), signal()));
    expect(error.code).toBe("llm_unavailable");
    expect(error.message).toContain("larger than the engine accepts");
    expect(fake.server.requests).toHaveLength(1);
  });

  describe("abort", () => {
    it("sends nothing when the signal is already aborted", async () => {
      const reason = new Error("run cancelled");
      await expect(writer().write(writerInput(), AbortSignal.abort(reason))).rejects.toBe(reason);
      expect(fake.server.requests).toHaveLength(0);
    });

    it("stops a request in flight with the caller's reason", async () => {
      fake.server.setScenario("hang");
      const controller = new AbortController();
      const reason = new Error("run cancelled");
      const writing = writer({ timeoutMs: 10_000 }).write(writerInput(), controller.signal);
      await vi.waitFor(() => expect(fake.server.requests).toHaveLength(1));
      controller.abort(reason);
      await expect(writing).rejects.toBe(reason);
    });
  });

  describe("secrets", () => {
    const failing: FakeLlmScenario[] = ["always_invalid", "not_json", "rate_limited", "server_error", "hang"];

    it.each(failing)(
      "keeps the key, the prompt and upstream bodies out of the %s error",
      async (scenario) => {
        fake.server.setScenario(scenario, { retryAfter: "0" });
        const input = writerInput({ query: "Secret-ish fixture query about PT-0001?" });
        const error = await providerError(writer({ maxRetries: 1, timeoutMs: 300 }).write(input, signal()));
        const text = `${error.message} ${String(error.stack)}`;
        expect(text).not.toContain(API_KEY);
        expect(text).not.toContain(input.query);
        expect(text).not.toContain(FAKE_UPSTREAM_BODY_MARKER);
        expect(text).not.toContain("the fixture compound works");
      },
    );

    it("does not show the key when the writer is inspected or serialised", () => {
      const subject = writer();
      expect(inspect(subject, { depth: 10 })).not.toContain(API_KEY);
      expect(JSON.stringify(subject)).not.toContain(API_KEY);
    });

    it("sends a placeholder, never OPENAI_API_KEY from the environment, when no key is configured", async () => {
      vi.stubEnv("OPENAI_API_KEY", "sk-unrelated-environment-key");
      try {
        await writer({ apiKey: undefined }).write(writerInput(), signal());
      } finally {
        vi.unstubAllEnvs();
      }
      expect(fake.server.requests[0]!.headers.authorization).toBe("Bearer no-key-configured");
    });
  });
});
