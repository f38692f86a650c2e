/**
 * A JSON-answering client for any OpenAI-compatible chat-completions server (OpenAI, vLLM,
 * Ollama, llama.cpp server, LM Studio) over the official `openai` SDK.
 *
 * - One chat completion at temperature 0 asks for the reply as structured output (a JSON
 *   Schema); a server that answers 400/422 to that is asked again with plain JSON mode, and
 *   the client remembers it for later calls once that works.
 * - The reply is always re-checked with the caller's zod schema and check (some servers accept a
 *   schema without enforcing it). A reply that fails gets ONE repair request that quotes the
 *   problems; a second failure is "llm_invalid_output".
 * - The SDK's own retries are off: its waits ignore the caller's AbortSignal and any cap.
 *   Here 429, 5xx and connection failures are retried at most `maxRetries` times, waiting as
 *   Retry-After asks when that fits under the cap (otherwise giving up at once); a timeout is
 *   not retried (a server that hung once usually hangs again, and each try costs the whole
 *   timeout).
 * - Failures are LlmErrors with messages written here: never the key, the prompt or an upstream
 *   body (the SDK's messages quote upstream bodies, so they are never passed on). The caller's
 *   abort reason is rethrown as it is.
 */
import type * as OpenAiSdkModule from "openai";
import type OpenAI from "openai";
import type { APIError, ClientOptions } from "openai";
import { z } from "zod";
import { type ChatMessage, buildRepairMessages, checkJsonReply, summariseProblems } from "./json-reply.js";
import { LlmError, type LlmErrorCode } from "./llm-error.js";
import { cappedFetch, isResponseTooLarge } from "./response-cap.js";
import {
  DEFAULT_MAX_RETRY_DELAY_MS,
  type Sleep,
  abortReason,
  abortableSleep,
  delayBeforeRetry,
  retryAfterMs,
} from "./retry.js";

/** A chat completion with a few thousand tokens of JSON is far below this. */
export const DEFAULT_LLM_MAX_RESPONSE_BYTES = 1024 * 1024;

/**
 * Sent when no key is configured (local servers ignore it). Passing something explicit also
 * keeps the SDK from picking up an unrelated OPENAI_API_KEY from the environment.
 */
const NO_KEY_PLACEHOLDER = "no-key-configured";

type OpenAiSdk = typeof OpenAiSdkModule;
// The SDK takes about 0.1 s to load: loaded with the first request, so a process that has no
// language model configured (the offline rules engine) never loads it.
let sdk: Promise<OpenAiSdk> | undefined;
const loadSdk = (): Promise<OpenAiSdk> => (sdk ??= import("openai"));

/** A server-reported model name longer than this, or with odd characters, is not repeated. */
const REPORTED_MODEL_PATTERN = /^[\x21-\x7e]{1,200}$/;

export interface OpenAiCompatibleJsonClientOptions {
  /** e.g. "http://127.0.0.1:11434/v1" (the path up to /chat/completions). */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Per request, from sending to the last byte of the reply. */
  timeoutMs: number;
  /** Retries after a 429, a 5xx or a connection failure (not after a timeout). */
  maxRetries: number;
  /** The longest Retry-After the client waits for; a server asking for more is given up on. */
  maxRetryDelayMs?: number;
  maxResponseBytes?: number;
  sleep?: Sleep;
  /** Who is asking, as error messages name it, e.g. "the engine". */
  callerName?: string;
  /**
   * The prefix of the variables that configure this client, e.g. "PETRI_ENGINE_LLM": a 401 then
   * says "check PETRI_ENGINE_LLM_API_KEY".
   */
  settingsPrefix?: string;
}

export interface JsonCompletionRequest<T> {
  /** Names the schema in response_format: letters, digits, "_" and "-", at most 64. */
  name: string;
  /** The reply must parse and pass this; its output is the returned value. */
  schema: z.ZodType<T>;
  /**
   * The JSON Schema sent as structured output, written for strict mode (every key required,
   * null for none, additionalProperties false). Without it, one is derived from `schema` and
   * sent as a non-strict hint.
   */
  jsonSchema?: Record<string, unknown>;
  system: string;
  user: string;
  signal: AbortSignal;
  /** Problems zod cannot express (cross-field rules); an empty list accepts the value. */
  check?: (value: T) => readonly string[];
}

export interface JsonCompletion<T> {
  value: T;
  /** The model that answered, as the server names it (else the configured one). */
  model: string;
}

type StructuredOutput = "json_schema" | "json_object";

interface ResponseFormatSchema {
  name: string;
  schema: Record<string, unknown>;
  strict: boolean;
}

interface Failure {
  code: LlmErrorCode;
  message: string;
  retryable: boolean;
  serverDelayMs?: number;
  /** The HTTP status of a refused request (4xx other than 408 and 429). */
  status?: number;
}

interface Reply {
  content: string | null;
  model: string;
}

type AttemptOutcome = { ok: true; reply: Reply } | { ok: false; failure: Failure };

function responseFormat(mode: StructuredOutput, format: ResponseFormatSchema) {
  return mode === "json_schema"
    ? ({ type: "json_schema", json_schema: format } as const)
    : ({ type: "json_object" } as const);
}

function derivedJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...derived } = z.toJSONSchema(schema, {
    io: "input",
    unrepresentable: "any",
  }) as Record<string, unknown>;
  return derived;
}

function headerOf(error: APIError, name: string): string | null {
  return error.headers instanceof Headers ? error.headers.get(name) : null;
}

/** 400 (OpenAI, vLLM, llama.cpp) or 422 (some FastAPI-based servers) to a json_schema request. */
function isSchemaRejection(failure: Failure): boolean {
  return failure.status === 400 || failure.status === 422;
}

export class OpenAiCompatibleJsonClient {
  readonly model: string;
  /** A private field: inspecting or serialising the client never shows the SDK's key. */
  readonly #clientOptions: ClientOptions;
  #client: Promise<{ client: OpenAI; sdk: OpenAiSdk }> | undefined;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #maxRetryDelayMs: number;
  readonly #sleep: Sleep;
  readonly #callerName: string;
  readonly #settingsPrefix: string | undefined;
  #structuredOutput: StructuredOutput = "json_schema";

  constructor(options: OpenAiCompatibleJsonClientOptions) {
    this.model = options.model;
    this.#timeoutMs = options.timeoutMs;
    this.#maxRetries = options.maxRetries;
    this.#maxRetryDelayMs = options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
    this.#sleep = options.sleep ?? abortableSleep;
    this.#callerName = options.callerName ?? "Petri";
    this.#settingsPrefix = options.settingsPrefix;
    this.#clientOptions = {
      baseURL: options.baseUrl,
      apiKey: options.apiKey || NO_KEY_PLACEHOLDER,
      organization: null,
      project: null,
      maxRetries: 0,
      timeout: options.timeoutMs,
      // OPENAI_LOG=debug would otherwise print prompts and headers.
      logLevel: "off",
      fetch: cappedFetch(options.maxResponseBytes ?? DEFAULT_LLM_MAX_RESPONSE_BYTES),
    };
  }

  /** The SDK's client, made with the first request. */
  #connect(): Promise<{ client: OpenAI; sdk: OpenAiSdk }> {
    this.#client ??= loadSdk().then((loaded) => ({
      client: new loaded.default(this.#clientOptions),
      sdk: loaded,
    }));
    return this.#client;
  }

  /**
   * Asks for a JSON reply and returns it checked. Throws LlmError, or the caller's abort reason
   * once `signal` aborts (before sending, during a request or during a wait).
   */
  async completeJson<T>(request: JsonCompletionRequest<T>): Promise<JsonCompletion<T>> {
    const { signal } = request;
    if (signal.aborted) throw abortReason(signal);
    const format: ResponseFormatSchema = {
      name: request.name,
      schema: request.jsonSchema ?? derivedJsonSchema(request.schema),
      strict: request.jsonSchema !== undefined,
    };
    const messages: ChatMessage[] = [
      { role: "system", content: request.system },
      { role: "user", content: request.user },
    ];
    const first = await this.complete(messages, format, signal);
    const check = checkJsonReply(first.content, request.schema, request.check);
    if (check.ok) return { value: check.value, model: first.model };

    const repairMessages = buildRepairMessages(messages, first.content ?? "", check.problems);
    const repaired = await this.complete(repairMessages, format, signal);
    const recheck = checkJsonReply(repaired.content, request.schema, request.check);
    if (recheck.ok) return { value: recheck.value, model: repaired.model };
    throw new LlmError(
      "llm_invalid_output",
      `the language model's reply did not match the expected JSON, also after one repair request (${summariseProblems(recheck.problems)})`,
    );
  }

  /** One completion, with the json_object fallback and the bounded retries. */
  private async complete(
    messages: ChatMessage[],
    format: ResponseFormatSchema,
    signal: AbortSignal,
  ): Promise<Reply> {
    for (let retry = 0; ; retry++) {
      let outcome = await this.attempt(messages, this.#structuredOutput, format, signal);
      if (!outcome.ok && this.#structuredOutput === "json_schema" && isSchemaRejection(outcome.failure)) {
        // Not a retry: the same request in the form servers without structured output accept.
        outcome = await this.attempt(messages, "json_object", format, signal);
        if (outcome.ok) this.#structuredOutput = "json_object";
      }
      if (outcome.ok) return outcome.reply;
      if (!outcome.failure.retryable || retry >= this.#maxRetries)
        throw new LlmError(outcome.failure.code, outcome.failure.message);
      await this.waitBeforeRetry(retry, outcome.failure, signal);
    }
  }

  private async waitBeforeRetry(retry: number, failure: Failure, signal: AbortSignal): Promise<void> {
    const delay = delayBeforeRetry(retry, failure.serverDelayMs, this.#maxRetryDelayMs);
    if (delay === undefined)
      throw new LlmError(
        failure.code,
        `${failure.message}; the server asked to wait ${Math.ceil((failure.serverDelayMs ?? 0) / 1000)} s, longer than ${this.#callerName} waits`,
      );
    await this.#sleep(delay, signal);
  }

  /** The reply, or the classified failure. Throws only the caller's abort reason. */
  private async attempt(
    messages: ChatMessage[],
    mode: StructuredOutput,
    format: ResponseFormatSchema,
    signal: AbortSignal,
  ): Promise<AttemptOutcome> {
    const deadline = AbortSignal.timeout(this.#timeoutMs);
    const { client, sdk } = await this.#connect();
    try {
      const completion = await client.chat.completions.create(
        {
          model: this.model,
          messages,
          temperature: 0,
          response_format: responseFormat(mode, format),
        },
        { signal: AbortSignal.any([signal, deadline]) },
      );
      const choices: unknown = (completion as { choices?: unknown }).choices;
      if (!Array.isArray(choices))
        return {
          ok: false,
          failure: {
            code: "llm_unavailable",
            message: "the language model server sent a response without choices",
            retryable: false,
          },
        };
      const content: unknown = (choices[0] as { message?: { content?: unknown } } | undefined)?.message
        ?.content;
      const reported: unknown = (completion as { model?: unknown }).model;
      return {
        ok: true,
        reply: {
          content: typeof content === "string" ? content : null,
          model:
            typeof reported === "string" && REPORTED_MODEL_PATTERN.test(reported) ? reported : this.model,
        },
      };
    } catch (error) {
      if (signal.aborted) throw abortReason(signal);
      return { ok: false, failure: this.classify(error, deadline.aborted, sdk) };
    }
  }

  private classify(error: unknown, deadlinePassed: boolean, sdk: OpenAiSdk): Failure {
    if (deadlinePassed || error instanceof sdk.APIConnectionTimeoutError)
      return {
        code: "timeout",
        message: `the language model server did not answer within ${this.#timeoutMs} ms`,
        retryable: false,
      };
    if (isResponseTooLarge(error))
      return {
        code: "llm_unavailable",
        message: `the language model server sent a response larger than ${this.#callerName} accepts`,
        retryable: false,
      };
    if (error instanceof sdk.APIUserAbortError || error instanceof sdk.APIConnectionError)
      return {
        code: "llm_unavailable",
        message: "could not reach the language model server",
        retryable: true,
      };
    if (error instanceof sdk.APIError && typeof error.status === "number") {
      const status = error.status;
      if (status === 429) {
        const serverDelayMs = retryAfterMs({
          retryAfter: headerOf(error, "retry-after"),
          retryAfterMs: headerOf(error, "retry-after-ms"),
        });
        return {
          code: "llm_rate_limited",
          message: `the language model server is rate limiting ${this.#callerName} (HTTP 429)`,
          retryable: true,
          ...(serverDelayMs === undefined ? {} : { serverDelayMs }),
        };
      }
      if (status >= 500 || status === 408)
        return {
          code: "llm_unavailable",
          message: `the language model server failed (HTTP ${status})`,
          retryable: true,
        };
      return {
        code: "llm_unavailable",
        message: `the language model server refused the request (HTTP ${status})${this.hintFor(status)}`,
        retryable: false,
        status,
      };
    }
    return {
      code: "llm_unavailable",
      message: `the language model server sent a response ${this.#callerName} could not read`,
      retryable: false,
    };
  }

  private hintFor(status: number): string {
    const prefix = this.#settingsPrefix;
    if (!prefix) return "";
    if (status === 401 || status === 403) return `; check ${prefix}_API_KEY`;
    if (status === 404) return `; check ${prefix}_BASE_URL and ${prefix}_MODEL`;
    return "";
  }
}
