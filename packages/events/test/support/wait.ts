/** Polls `check` (real time) until it returns true or the timeout passes; then fails with `what`. */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  what: string | (() => string | Promise<string>),
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for: ${typeof what === "string" ? what : await what()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A structural pino-like logger that stays quiet unless DEBUG_EVENTS is set, and keeps the records. */
export function testLogger() {
  const records: Array<{ level: string; obj: unknown; msg?: string }> = [];
  const log =
    (level: string) =>
    (obj: object | string, msg?: string): void => {
      records.push({ level, obj, ...(msg === undefined ? {} : { msg }) });
      if (process.env.DEBUG_EVENTS) console.log(level, msg ?? "", JSON.stringify(obj));
    };
  return { info: log("info"), warn: log("warn"), error: log("error"), debug: log("debug"), records };
}
