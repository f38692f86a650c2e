/**
 * What a language model call reports when it fails. The message is written by this library and
 * is safe to show a caller: it never holds the API key, the prompt or an upstream body.
 */
export type LlmErrorCode = "llm_unavailable" | "llm_invalid_output" | "llm_rate_limited" | "timeout";

export class LlmError extends Error {
  constructor(
    readonly code: LlmErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "LlmError";
  }
}
