import { createServer } from "node:net";
import { inspect } from "node:util";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { LlmError } from "./llm-error.js";
import {
  type JsonCompletionRequest,
  OpenAiCompatibleJsonClient,
  type OpenAiCompatibleJsonClientOptions,
} from "./openai-compatible-json-client.js";
import {
  FAKE_JSON_VALID_REPLY,
  FAKE_LLM_MODEL,
  FAKE_LLM_PROSE_REPLY,
  FAKE_UPSTREAM_BODY_MARKER,
  type FakeLlmScenario,
  chatBodyOf,
  startFakeLlmServer,
} from "@petri/fixtures/fake-llm";
import { rejectionOf, useFakeServer } from "@petri/fixtures/fake-server-tests";

const API_KEY = "sk-petri-test-key-must-never-leak";
const SYSTEM = "Answer with a JSON object with the keys answer and count.";
const USER = "Secret-ish fixture question about PT-0001?";

const replySchema = z.object({ answer: z.string().trim().min(1, "must not be empty"), count: z.int() });
const strictJsonSchema = {
  type: "object",
  properties: { answer: { type: "string" }, count: { type: "integer" } },
  required: ["answer", "count"],
  additionalProperties: false,
};

const fake = useFakeServer(startFakeLlmServer, "valid");

function client(overrides: Partial<OpenAiCompatibleJsonClientOptions> = {}) {
  return new OpenAiCompatibleJsonClient({
    baseUrl: fake.server.url,
    apiKey: API_KEY,
    model: FAKE_LLM_MODEL,
    // Generous for answers on a loaded machine; the hang tests shorten it.
    timeoutMs: 2000,
    maxRetries: 2,
    sleep: fake.sleep,
    callerName: "the test service",
    settingsPrefix: "PETRI_TEST_LLM",
    ...overrides,
  });
}

function request(
  overrides: Partial<JsonCompletionRequest<z.output<typeof replySchema>>> = {},
): JsonCompletionRequest<z.output<typeof replySchema>> {
  return {
    name: "fixture_reply",
    schema: replySchema,
    jsonSchema: strictJsonSchema,
    system: SYSTEM,
    user: USER,
    signal: new AbortController().signal,
    ...overrides,
  };
}

const llmError = (promise: Promise<unknown>) => rejectionOf(promise, LlmError);

const bodyOf = (index: number) => chatBodyOf(fake.server, index);

describe("OpenAiCompatibleJsonClient", () => {
  it("asks once at temperature 0 for strict structured output and returns the checked value", async () => {
    const completion = await client().completeJson(request());
    expect(completion).toEqual({ value: FAKE_JSON_VALID_REPLY, model: FAKE_LLM_MODEL });
    expect(fake.server.requests).toHaveLength(1);
    const sent = fake.server.requests[0]!;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.headers.authorization).toBe(`Bearer ${API_KEY}`);
    const body = bodyOf(0);
    expect(body.model).toBe(FAKE_LLM_MODEL);
    expect(body.temperature).toBe(0);
    expect(body.messages).toEqual([
      { role: "system", content: SYSTEM },
      { role: "user", content: USER },
    ]);
    expect(body.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "fixture_reply", strict: true, schema: strictJsonSchema },
    });
  });

  it("derives a non-strict JSON Schema from the zod schema when none is given", async () => {
    await client().completeJson(request({ jsonSchema: undefined }));
    const format = bodyOf(0).response_format.json_schema!;
    expect(format.strict).toBe(false);
    expect(format.schema).not.toHaveProperty("$schema");
    expect(format.schema).toMatchObject({ type: "object", required: ["answer", "count"] });
  });

  it("returns the zod output and the model the server names", async () => {
    fake.server.setScenario("valid", {
      reply: { answer: "  padded  ", count: 1 },
      reportedModel: "fake-model-2026",
    });
    const completion = await client().completeJson(request());
    expect(completion).toEqual({ value: { answer: "padded", count: 1 }, model: "fake-model-2026" });
  });

  it("returns the configured model when the server names none worth repeating", async () => {
    fake.server.setScenario("valid", { reportedModel: "a model name\nwith a line break" });
    expect((await client().completeJson(request())).model).toBe(FAKE_LLM_MODEL);
  });

  it("repairs a schema-violating reply once, feeding back the problems", async () => {
    fake.server.setScenario("invalid_then_valid");
    expect((await client().completeJson(request())).value).toEqual(FAKE_JSON_VALID_REPLY);
    expect(fake.server.requests).toHaveLength(2);
    const repair = bodyOf(1).messages;
    expect(repair).toHaveLength(4);
    expect(repair[2]!.role).toBe("assistant");
    expect(repair[3]!.content).toContain("- answer: must not be empty");
    expect(repair[3]!.content).toContain("- count:");
  });

  it("asks for a repair when the caller's check rejects the value, and fails when it still does", async () => {
    const check = vi.fn((value: { count: number }) => (value.count > 2 ? ["count: must be at most 2"] : []));
    fake.server.setScenario("valid");
    const error = await llmError(client().completeJson(request({ check })));
    expect(error.code).toBe("llm_invalid_output");
    expect(error.message).toContain("count: must be at most 2");
    expect(bodyOf(1).messages[3]!.content).toContain("- count: must be at most 2");
    expect(check).toHaveBeenCalledTimes(2);
  });

  it("fails with llm_invalid_output when the repaired reply still violates the schema", async () => {
    fake.server.setScenario("always_invalid");
    const error = await llmError(client().completeJson(request()));
    expect(error.code).toBe("llm_invalid_output");
    expect(error.message).toContain("answer: must not be empty");
    expect(fake.server.requests).toHaveLength(2);
  });

  it("fails with llm_invalid_output when the model answers prose twice", async () => {
    fake.server.setScenario("not_json");
    const error = await llmError(client().completeJson(request()));
    expect(error.code).toBe("llm_invalid_output");
    expect(fake.server.requests).toHaveLength(2);
    expect(bodyOf(1).messages[3]!.content).toContain("not valid JSON");
  });

  it("retries a 429 as often as configured, waiting as retry-after asks, then reports llm_rate_limited", async () => {
    fake.server.setScenario("rate_limited", { retryAfter: "1" });
    const error = await llmError(client().completeJson(request()));
    expect(error.code).toBe("llm_rate_limited");
    expect(error.message).toContain("rate limiting the test service");
    expect(fake.server.requests).toHaveLength(3);
    expect(fake.sleeps).toEqual([1000, 1000]);
  });

  it("gives up at once when retry-after asks for longer than the cap", async () => {
    fake.server.setScenario("rate_limited", { retryAfter: "3600" });
    const error = await llmError(client({ maxRetryDelayMs: 5000 }).completeJson(request()));
    expect(error.code).toBe("llm_rate_limited");
    expect(error.message).toContain("longer than the test service waits");
    expect(fake.server.requests).toHaveLength(1);
    expect(fake.sleeps).toEqual([]);
  });

  it("retries a 500 with backoff, then reports llm_unavailable", async () => {
    fake.server.setScenario("server_error");
    const error = await llmError(client({ maxRetries: 1 }).completeJson(request()));
    expect(error.code).toBe("llm_unavailable");
    expect(error.message).toContain("HTTP 500");
    expect(fake.server.requests).toHaveLength(2);
    expect(fake.sleeps).toEqual([250]);
  });

  it("makes no retry when maxRetries is 0", async () => {
    fake.server.setScenario("server_error");
    await llmError(client({ maxRetries: 0 }).completeJson(request()));
    expect(fake.server.requests).toHaveLength(1);
  });

  it("reports a server that hangs past the timeout as timeout, without retrying", async () => {
    fake.server.setScenario("hang");
    const error = await llmError(client({ timeoutMs: 200 }).completeJson(request()));
    expect(error.code).toBe("timeout");
    expect(error.message).toContain("200 ms");
    expect(fake.server.requests).toHaveLength(1);
  });

  it("falls back to json_object when the server rejects json_schema, and remembers it", async () => {
    fake.server.setScenario("reject_json_schema");
    const fallingBack = client();
    expect((await fallingBack.completeJson(request())).value).toEqual(FAKE_JSON_VALID_REPLY);
    expect(fake.server.requests.map((_, index) => bodyOf(index).response_format.type)).toEqual([
      "json_schema",
      "json_object",
    ]);
    expect(fake.sleeps).toEqual([]);
    await fallingBack.completeJson(request());
    expect(bodyOf(2).response_format.type).toBe("json_object");
  });

  it("reports an unreachable server as llm_unavailable after the retries", async () => {
    const port = await closedPort();
    const unreachable = client({ baseUrl: `http://127.0.0.1:${port}/v1` });
    const error = await llmError(unreachable.completeJson(request()));
    expect(error.code).toBe("llm_unavailable");
    expect(error.message).toContain("could not reach");
    expect(fake.sleeps).toHaveLength(2);
  });

  it("names the settings to check when the server refuses the request", async () => {
    const error = await llmError(client({ baseUrl: `${fake.server.url}/nowhere` }).completeJson(request()));
    expect(error.code).toBe("llm_unavailable");
    expect(error.message).toContain("HTTP 404");
    expect(error.message).toContain("check PETRI_TEST_LLM_BASE_URL and PETRI_TEST_LLM_MODEL");
    expect(fake.server.requests).toHaveLength(1);
  });

  it("refuses a reply larger than the response cap, without retrying", async () => {
    const error = await llmError(client({ maxResponseBytes: 100 }).completeJson(request()));
    expect(error.code).toBe("llm_unavailable");
    expect(error.message).toContain("larger than the test service accepts");
    expect(fake.server.requests).toHaveLength(1);
  });

  describe("abort", () => {
    it("sends nothing when the signal is already aborted", async () => {
      const reason = new Error("request cancelled");
      await expect(client().completeJson(request({ signal: AbortSignal.abort(reason) }))).rejects.toBe(
        reason,
      );
      expect(fake.server.requests).toHaveLength(0);
    });

    it("stops a request in flight with the caller's reason", async () => {
      fake.server.setScenario("hang");
      const controller = new AbortController();
      const reason = new Error("request cancelled");
      const completing = client({ timeoutMs: 10_000 }).completeJson(request({ signal: controller.signal }));
      await vi.waitFor(() => expect(fake.server.requests).toHaveLength(1));
      controller.abort(reason);
      await expect(completing).rejects.toBe(reason);
    });

    it("stops the wait before a retry", async () => {
      fake.server.setScenario("rate_limited", { retryAfter: "30" });
      const controller = new AbortController();
      const reason = new Error("request cancelled");
      const patient = new OpenAiCompatibleJsonClient({
        baseUrl: fake.server.url,
        model: FAKE_LLM_MODEL,
        timeoutMs: 2000,
        maxRetries: 2,
        maxRetryDelayMs: 60_000,
      });
      const completing = patient.completeJson(request({ signal: controller.signal }));
      await vi.waitFor(() => expect(fake.server.requests).toHaveLength(1));
      controller.abort(reason);
      await expect(completing).rejects.toBe(reason);
      expect(fake.server.requests).toHaveLength(1);
    });
  });

  describe("secrets", () => {
    const failing: FakeLlmScenario[] = ["always_invalid", "not_json", "rate_limited", "server_error", "hang"];

    it.each(failing)(
      "keeps the key, the prompt and upstream bodies out of the %s error",
      async (scenario) => {
        fake.server.setScenario(scenario, { retryAfter: "0" });
        const error = await llmError(client({ maxRetries: 1, timeoutMs: 300 }).completeJson(request()));
        const text = `${error.message} ${String(error.stack)}`;
        expect(text).not.toContain(API_KEY);
        expect(text).not.toContain(USER);
        expect(text).not.toContain(SYSTEM);
        expect(text).not.toContain(FAKE_UPSTREAM_BODY_MARKER);
        expect(text).not.toContain(FAKE_LLM_PROSE_REPLY);
      },
    );

    it("does not show the key when the client is inspected or serialised", () => {
      const subject = client();
      expect(inspect(subject, { depth: 10, showHidden: true })).not.toContain(API_KEY);
      expect(JSON.stringify(subject)).not.toContain(API_KEY);
    });

    it("sends a placeholder, never OPENAI_API_KEY from the environment, when no key is configured", async () => {
      vi.stubEnv("OPENAI_API_KEY", "sk-unrelated-environment-key");
      try {
        await client({ apiKey: undefined }).completeJson(request());
      } finally {
        vi.unstubAllEnvs();
      }
      expect(fake.server.requests[0]!.headers.authorization).toBe("Bearer no-key-configured");
    });
  });
});

/** A port nothing listens on: bound by the OS, then released. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
