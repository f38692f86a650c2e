/**
 * Named crash points for fault tests (reference: reliability test plan, H2).
 *
 * Armed from the FAILPOINTS environment variable ("name=action;name2=action") or in-process
 * with `failpoints.arm(...)`. Actions:
 *   crash       SIGKILL this process (a real crash: no finally blocks, no flushing)
 *   throw       throw FailpointError (an in-process stand-in for a crash of one component)
 *   delay:<ms>  wait, then go on
 * An action may be limited to the first N hits with a "*N" suffix, e.g. "throw*3".
 * Disarmed failpoints cost one Map lookup.
 */
export class FailpointError extends Error {
  constructor(readonly failpoint: string) {
    super(`failpoint ${failpoint} fired`);
    this.name = "FailpointError";
  }
}

type Action = { kind: "crash" } | { kind: "throw" } | { kind: "delay"; ms: number };
interface Armed {
  action: Action;
  remaining: number;
}

function parseAction(text: string): { action: Action; times: number } {
  const [body = "", timesText] = text.trim().split("*");
  const times = timesText === undefined ? Number.POSITIVE_INFINITY : Number(timesText);
  if (!Number.isFinite(times) && timesText !== undefined) throw new Error(`bad failpoint count in "${text}"`);
  if (body === "crash") return { action: { kind: "crash" }, times };
  if (body === "throw") return { action: { kind: "throw" }, times };
  const delay = /^delay:(\d+)$/.exec(body);
  if (delay) return { action: { kind: "delay", ms: Number(delay[1]) }, times };
  throw new Error(`unknown failpoint action "${text}" (crash, throw, delay:<ms>, optional *N)`);
}

export class Failpoints {
  private readonly armed = new Map<string, Armed>();
  private readonly hits = new Map<string, number>();

  constructor(spec = "") {
    for (const part of spec.split(";").filter((p) => p.trim() !== "")) {
      const [name, action] = part.split("=");
      if (!name || !action) throw new Error(`bad FAILPOINTS entry "${part}" (want name=action)`);
      this.arm(name.trim(), action);
    }
  }

  arm(name: string, action: string): void {
    const parsed = parseAction(action);
    this.armed.set(name, { action: parsed.action, remaining: parsed.times });
  }

  disarm(name?: string): void {
    if (name === undefined) this.armed.clear();
    else this.armed.delete(name);
  }

  /** How many times the named point was reached while armed. */
  hitCount(name: string): number {
    return this.hits.get(name) ?? 0;
  }

  async hit(name: string): Promise<void> {
    const armed = this.armed.get(name);
    if (!armed || armed.remaining <= 0) return;
    armed.remaining -= 1;
    this.hits.set(name, (this.hits.get(name) ?? 0) + 1);
    switch (armed.action.kind) {
      case "crash":
        process.kill(process.pid, "SIGKILL");
        // SIGKILL is delivered asynchronously; never continue past a crash point.
        await new Promise(() => undefined);
        return;
      case "throw":
        throw new FailpointError(name);
      case "delay":
        await new Promise((resolve) => setTimeout(resolve, (armed.action as { ms: number }).ms));
        return;
    }
  }
}

/** The process-wide failpoints, armed from FAILPOINTS. */
export const failpoints = new Failpoints(process.env.FAILPOINTS ?? "");

/** The named crash points the event plumbing honours. */
export const FAILPOINT = {
  afterCommitBeforeOutboxPublish: "after_commit_before_outbox_publish",
  afterPubackBeforeMarkSent: "after_puback_before_mark_sent",
  afterEffectBeforeAck: "after_effect_before_ack",
  afterDbCommitBeforeResponse: "after_db_commit_before_response",
  after2xxBeforeDeliveryRecorded: "after_2xx_before_delivery_recorded",
  /**
   * "consumer_handler_fails:<consumer name>": that consumer's handler fails as with a real
   * error (retried, then dead-lettered), where a FailpointError would only abandon the delivery.
   */
  consumerHandlerFails: "consumer_handler_fails",
} as const;
