/**
 * POST /cloud-labs/interpret's language model: reads an intake into the public Interpretation
 * through @petri/llm's JSON client (structured output with the json_object fallback, bounded
 * retries, one repair request, abort, error messages without the key, the intake or an upstream
 * body). The rules interpreter's reading goes along as the reference; the reply is zod-checked
 * against the Interpretation's bounds and must keep the intake's experiment type.
 *
 * Throws LlmError (code llm_unavailable, llm_invalid_output, llm_rate_limited or timeout), or the
 * caller's abort reason; the interpret use case then answers with the rules' reading.
 */
import { OpenAiCompatibleJsonClient, type Sleep } from "@petri/llm";
import type { Interpretation } from "../domain/plan.js";
import type { CloudLabsLlmConfig } from "./config.js";
import {
  INTERPRETATION_SCHEMA_NAME,
  checkAgainstRules,
  interpretationJsonSchema,
  interpretationReplySchema,
} from "./interpretation-reply.js";
import { buildInterpretPrompt } from "./prompt.js";

export interface LlmIntakeInterpreterOptions extends CloudLabsLlmConfig {
  maxRetryDelayMs?: number;
  maxResponseBytes?: number;
  /** Injectable so tests observe the waits between retries without sleeping. */
  sleep?: Sleep;
}

export class LlmIntakeInterpreter {
  /** e.g. "openai-compatible:gpt-4o-mini": who read the intake. */
  readonly id: string;
  /** A private field: inspecting or serialising the interpreter never shows the client's key. */
  readonly #client: OpenAiCompatibleJsonClient;
  readonly #jsonSchema = interpretationJsonSchema();
  readonly #schema = interpretationReplySchema();

  constructor({ apiKey, ...options }: LlmIntakeInterpreterOptions) {
    this.id = `openai-compatible:${options.model}`;
    this.#client = new OpenAiCompatibleJsonClient({
      ...options,
      ...(apiKey ? { apiKey: apiKey.reveal() } : {}),
      callerName: "the cloud-labs service",
      settingsPrefix: "PETRI_CLOUDLABS_LLM",
    });
  }

  async interpret(intake: unknown, rules: Interpretation, signal: AbortSignal): Promise<Interpretation> {
    const { system, user } = buildInterpretPrompt(intake, rules);
    const { value } = await this.#client.completeJson({
      name: INTERPRETATION_SCHEMA_NAME,
      schema: this.#schema,
      jsonSchema: this.#jsonSchema,
      system,
      user,
      signal,
      check: (reply) => checkAgainstRules(reply, rules),
    });
    return value;
  }
}
