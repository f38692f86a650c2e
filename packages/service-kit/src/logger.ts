/**
 * JSON logs (pino) that carry the request's ids, so one grep of a trace id finds every line
 * a request produced across the gateway and services.
 */
import { pino, type DestinationStream, type Logger, type LevelWithSilent } from "pino";
import { currentRequestContext } from "./context.js";

export type { Logger } from "pino";

/** Field names whose values never reach a log line, wherever they appear (up to 3 levels deep). */
export const REDACTED_LOG_FIELDS = [
  "authorization",
  "x-api-key",
  "x-petri-principal",
  "cookie",
  "set-cookie",
  "password",
  "secret",
  "token",
  "api_key",
  "apiKey",
  "access_token",
  "refresh_token",
] as const;

function redactPaths(fields: readonly string[], depth: number): string[] {
  const paths: string[] = [];
  for (const field of fields) {
    // fast-redact wants bracket notation for names that are not identifiers (x-api-key).
    const segment = /^[A-Za-z_$][\w$]*$/.test(field) ? field : `["${field}"]`;
    const join = segment.startsWith("[") ? "" : ".";
    paths.push(segment);
    for (let level = 1; level <= depth; level += 1) paths.push(`${"*.".repeat(level - 1)}*${join}${segment}`);
  }
  return paths;
}

export interface CreateLoggerOptions {
  /** Service name, on every line as "service". */
  service: string;
  level?: LevelWithSilent;
  /** Where lines go; stdout by default. Tests pass a stream to read them back. */
  destination?: DestinationStream;
}

export function createLogger(options: CreateLoggerOptions): Logger {
  return pino(
    {
      level: options.level ?? "info",
      base: { service: options.service },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Level names ("info") read better than numbers in every log tool we use.
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: redactPaths(REDACTED_LOG_FIELDS, 3), censor: "[redacted]" },
      mixin() {
        const context = currentRequestContext();
        if (!context) return {};
        return { request_id: context.requestId, trace_id: context.traceId, span_id: context.spanId };
      },
    },
    options.destination,
  );
}
