/**
 * JSON logs (pino) that carry the request's ids, so one grep of a trace id finds every line
 * a request produced across the gateway and services.
 */
import {
  pino,
  type Bindings,
  type ChildLoggerOptions,
  type DestinationStream,
  type Logger,
  type LevelWithSilent,
} from "pino";
import { currentRequestContext } from "./context.js";
import { sanitizeLogError, sanitizeLogLine, sanitizeLogValue } from "./log-redaction.js";

export type { Logger } from "pino";

export interface CreateLoggerOptions {
  /** Service name, on every line as "service". */
  service: string;
  level?: LevelWithSilent;
  /** Where lines go; stdout by default. Tests pass a stream to read them back. */
  destination?: DestinationStream;
}

export function createLogger(options: CreateLoggerOptions): Logger {
  const logger = pino(
    {
      level: options.level ?? "info",
      base: { service: options.service },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Level names ("info") read better than numbers in every log tool we use.
      formatters: {
        level: (label) => ({ level: label }),
        bindings: (bindings) => sanitizeLogValue(bindings) as Record<string, unknown>,
      },
      // Secrets are removed before pino sees the arguments (log-redaction.ts), at any depth and
      // by shape as well as by field name; pino's `redact` paths only match fixed depths. The
      // finished line is checked for secret shapes once more, for anything pino adds itself.
      hooks: { logMethod: sanitizeLogArguments, streamWrite: sanitizeLogLine },
      // Arguments arrive with `err` already serialised, which pino's default serializer would
      // retype as "Object"; an Error that reaches it some other way is sanitised the same way.
      serializers: { err: (value: unknown) => (value instanceof Error ? sanitizeLogError(value) : value) },
      mixin() {
        const context = currentRequestContext();
        if (!context) return {};
        return { request_id: context.requestId, trace_id: context.traceId, span_id: context.spanId };
      },
    },
    options.destination,
  );
  // pino renders a child's bindings once, without the logMethod hook. Children are created
  // with Object.create(parent), so this override serves grandchildren too; it is not bound, as
  // `this` is whichever logger child() is called on.
  type ChildFn = (this: unknown, bindings: Bindings, options?: ChildLoggerOptions) => unknown;
  const child = logger.child as unknown as ChildFn;
  const sanitizingChild: ChildFn = function (this: unknown, bindings, childOptions) {
    return child.call(this, sanitizeLogValue(bindings) as Bindings, childOptions);
  };
  logger.child = sanitizingChild as unknown as Logger["child"];
  return logger;
}

/**
 * pino's logMethod hook: every argument of a log call, sanitised. An Error passed first is
 * logged as pino would log it (under `err`, its message as the line's message), from the
 * sanitised copy so the message cannot carry what the copy dropped.
 */
function sanitizeLogArguments(this: Logger, args: unknown[], method: (...args: unknown[]) => void): void {
  let safe: unknown[];
  try {
    const [first, ...rest] = args;
    if (first instanceof Error) {
      const err = sanitizeLogError(first);
      safe = [{ err }, ...(rest.length > 0 ? rest.map(sanitizeLogValue) : [err.message])];
    } else {
      safe = args.map(sanitizeLogValue);
    }
  } catch {
    // A getter that throws, say: logging must not throw, and must not write what it could not check.
    safe = [{ log_arguments: "[unreadable]" }, "a log line's arguments could not be checked"];
  }
  method.apply(this, safe);
}
