/**
 * A HypothesisWriter over any OpenAI-compatible chat-completions server, through @petri/llm's
 * JSON client (structured output with the json_object fallback, bounded retries honouring
 * Retry-After, one repair request, abort, safe error messages). This file adds the writer's
 * prompt and reply schema, and reports the client's LlmErrors as EngineProviderErrors with the
 * same code, so a run fails with the provider's code.
 */
import {
  LlmError,
  OpenAiCompatibleJsonClient,
  type OpenAiCompatibleJsonClientOptions,
  abortReason,
} from "@petri/llm";
import { EXPERIMENT_TYPES } from "@petri/contracts/vocabulary";
import {
  EngineProviderError,
  type HypothesisWriter,
  type HypothesisWriterInput,
  type WrittenHypothesis,
} from "../../domain/generation.js";
import { buildPrompt } from "./prompt.js";
import { REPLY_SCHEMA_NAME, replyJsonSchema, replySchema } from "./written-hypothesis.js";

/** The client's options, but for how its messages name the engine and its settings. */
export type OpenAiCompatibleWriterOptions = Omit<
  OpenAiCompatibleJsonClientOptions,
  "callerName" | "settingsPrefix"
>;

export class OpenAiCompatibleWriter implements HypothesisWriter {
  readonly id: string;
  /** A private field: inspecting or serialising the writer never shows the client's key. */
  readonly #client: OpenAiCompatibleJsonClient;
  readonly #replyJsonSchema = replyJsonSchema();

  constructor(options: OpenAiCompatibleWriterOptions) {
    this.id = `openai-compatible:${options.model}`;
    this.#client = new OpenAiCompatibleJsonClient({
      ...options,
      callerName: "the engine",
      settingsPrefix: "PETRI_ENGINE_LLM",
    });
  }

  async write(input: HypothesisWriterInput, signal: AbortSignal): Promise<WrittenHypothesis> {
    if (signal.aborted) throw abortReason(signal);
    const { system, user } = buildPrompt(input, EXPERIMENT_TYPES);
    try {
      const { value } = await this.#client.completeJson({
        name: REPLY_SCHEMA_NAME,
        schema: replySchema(input.sources.length),
        jsonSchema: this.#replyJsonSchema,
        system,
        user,
        signal,
      });
      return value;
    } catch (error) {
      if (error instanceof LlmError) throw new EngineProviderError(error.code, error.message);
      throw error;
    }
  }
}
