/**
 * A fake OpenAI-compatible server for tests: POST /v1/chat/completions answers per the scenario
 * the test selects, GET /v1/models lists one model. Which JSON a "valid" and an "invalid" reply
 * hold is set when the server starts (each user has its own reply schema); the defaults fit the
 * library's own tests. The replies are obviously synthetic test fixtures, not science.
 */
import type { ServerResponse } from "node:http";
import { type FakeServer, type RecordedRequest, sendJson, startFakeHttpServer } from "./fake-http.js";

export type FakeLlmScenario =
  /** A reply that matches the schema. */
  | "valid"
  /** A schema-violating JSON reply first, then valid ones (exercises the one repair). */
  | "invalid_then_valid"
  /** Schema-violating JSON every time. */
  | "always_invalid"
  /** Prose instead of JSON every time. */
  | "not_json"
  /** 429 with a retry-after header every time. */
  | "rate_limited"
  /** 500 every time. */
  | "server_error"
  /** Never answers (until the client gives up or the server closes). */
  | "hang"
  /** 400 to any response_format of type json_schema; valid replies in json_object mode. */
  | "reject_json_schema";

export interface FakeLlmScenarioOptions {
  /** The retry-after header value for "rate_limited"; default "1" (seconds). */
  retryAfter?: string;
  /** The JSON object the valid reply holds in this scenario; default the server's valid reply. */
  reply?: object;
  /** The model name completions report; default the requested one (as servers without aliases do). */
  reportedModel?: string;
}

export type FakeLlmServer = FakeServer<FakeLlmScenario, FakeLlmScenarioOptions>;

export interface FakeLlmServerOptions {
  scenario?: FakeLlmScenario;
  options?: FakeLlmScenarioOptions;
  /** What a valid reply holds; default FAKE_JSON_VALID_REPLY. */
  validReply?: object;
  /** What a schema-violating reply holds; default FAKE_JSON_INVALID_REPLY. */
  invalidReply?: object;
}

export const FAKE_LLM_MODEL = "fake-model";

/** Appears in every error body the fake sends: error messages must never contain it. */
export const FAKE_UPSTREAM_BODY_MARKER = "fake-upstream-body-7f3a";

/** The prose of the "not_json" scenario: error messages must never contain it either. */
export const FAKE_LLM_PROSE_REPLY = "Here is my answer: the fixture compound works.";

/** Matches FAKE_JSON_REPLY_SCHEMA in the library's tests: a non-empty answer and a count. */
export const FAKE_JSON_VALID_REPLY = {
  answer: "Synthetic fixture answer of the fake language model server.",
  count: 3,
} as const;

/** Violates that schema: an empty answer and a count that is not a number. */
export const FAKE_JSON_INVALID_REPLY = { answer: "", count: "three" };

function completion(content: string, model: unknown) {
  return {
    id: "chatcmpl-fake",
    object: "chat.completion",
    created: 1_700_000_000,
    model: typeof model === "string" ? model : FAKE_LLM_MODEL,
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

function upstreamError(response: ServerResponse, status: number, headers: Record<string, string> = {}) {
  sendJson(
    response,
    status,
    { error: { message: `fake failure ${FAKE_UPSTREAM_BODY_MARKER}`, type: "fake_error", code: null } },
    headers,
  );
}

function responseFormatType(body: unknown): unknown {
  return (body as { response_format?: { type?: unknown } } | undefined)?.response_format?.type;
}

export async function startFakeLlmServer(initial: FakeLlmServerOptions = {}): Promise<FakeLlmServer> {
  let scenario: FakeLlmScenario = initial.scenario ?? "valid";
  let options: FakeLlmScenarioOptions = initial.options ?? {};
  const validReply = initial.validReply ?? FAKE_JSON_VALID_REPLY;
  const invalid = JSON.stringify(initial.invalidReply ?? FAKE_JSON_INVALID_REPLY);
  /** Completions answered since the scenario was set. */
  let completions = 0;

  const handle = (request: RecordedRequest, response: ServerResponse) => {
    if (request.method === "GET" && request.path === "/v1/models") {
      sendJson(response, 200, { object: "list", data: [{ id: FAKE_LLM_MODEL, object: "model" }] });
      return;
    }
    if (request.method !== "POST" || request.path !== "/v1/chat/completions") {
      upstreamError(response, 404);
      return;
    }
    const model = options.reportedModel ?? (request.body as { model?: unknown } | undefined)?.model;
    const valid = JSON.stringify(options.reply ?? validReply);
    completions++;
    switch (scenario) {
      case "valid":
        return sendJson(response, 200, completion(valid, model));
      case "invalid_then_valid":
        return sendJson(response, 200, completion(completions === 1 ? invalid : valid, model));
      case "always_invalid":
        return sendJson(response, 200, completion(invalid, model));
      case "not_json":
        return sendJson(response, 200, completion(FAKE_LLM_PROSE_REPLY, model));
      case "rate_limited":
        return upstreamError(response, 429, { "retry-after": options.retryAfter ?? "1" });
      case "server_error":
        return upstreamError(response, 500);
      case "hang":
        return;
      case "reject_json_schema":
        if (responseFormatType(request.body) === "json_schema") return upstreamError(response, 400);
        return sendJson(response, 200, completion(valid, model));
    }
  };

  const server = await startFakeHttpServer(handle);
  return {
    url: `${server.origin}/v1`,
    requests: server.requests,
    setScenario(next, nextOptions = {}) {
      scenario = next;
      options = nextOptions;
      server.resetPeakConcurrency();
      completions = 0;
    },
    get peakConcurrency() {
      return server.peakConcurrency();
    },
    close: server.close,
  };
}
