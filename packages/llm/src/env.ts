/**
 * zod schemas for the environment variables that configure a language model, shared so that
 * every service reads its LLM settings with the same rules and the same readable messages.
 * Each takes the raw string of one variable (services treat empty as unset before parsing).
 */
import { z } from "zod";
import { ApiKey } from "./api-key.js";

export const MAX_RETRIES_LIMIT = 10;

/** An http(s) URL without user:password in it; trailing slashes dropped. */
export const httpBaseUrlSchema = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "http:" || url.protocol === "https:") && !url.username && !url.password;
    } catch {
      return false;
    }
  }, "must be an http:// or https:// URL without credentials in it")
  .transform((value) => value.replace(/\/+$/, ""));

/** Never quotes the value in a message; the result only reveals it on request. */
export const apiKeySchema = z
  .string()
  .trim()
  .regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces")
  .transform((value) => new ApiKey(value));

export const modelNameSchema = z.string().trim().min(1).max(200, "must be at most 200 characters");

export const maxRetriesSchema = z
  .string()
  .trim()
  .regex(/^\d{1,2}$/, `must be a whole number from 0 to ${MAX_RETRIES_LIMIT}`)
  .transform(Number)
  .pipe(z.number().int().max(MAX_RETRIES_LIMIT, `must be a whole number from 0 to ${MAX_RETRIES_LIMIT}`));

/**
 * The "set together" rules of an LLM configuration: a base URL needs a model and vice versa, and
 * a key needs the URL it is sent to. Returns [variable, message] pairs to report on the
 * variable that IS set (a report on an unset one would read as plainly "required").
 */
export function llmPairingProblems(
  prefix: string,
  env: { baseUrl?: unknown; model?: unknown; apiKey?: unknown },
): [variable: string, message: string][] {
  const problems: [string, string][] = [];
  if (env.baseUrl && !env.model)
    problems.push([`${prefix}_BASE_URL`, `needs ${prefix}_MODEL as well (the model to ask)`]);
  if (env.model && !env.baseUrl)
    problems.push([`${prefix}_MODEL`, `needs ${prefix}_BASE_URL as well (e.g. http://127.0.0.1:11434/v1)`]);
  if (env.apiKey && !env.baseUrl)
    problems.push([`${prefix}_API_KEY`, `needs ${prefix}_BASE_URL as well (where the key is sent)`]);
  return problems;
}
