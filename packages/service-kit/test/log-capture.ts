import { createLogger, type Logger } from "../src/logger.js";

export type LogLine = Record<string, any>;

/** A real pino logger whose JSON lines land in an array the test can read. */
export function captureLogs(level: "debug" | "info" = "debug"): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const logger = createLogger({
    service: "test",
    level,
    destination: { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) },
  });
  return { logger, lines };
}
