import type { Clock } from "@petri/service-kit";
import type { Delivery } from "./bus.js";

/**
 * Extends the ack deadline of every delivery a consumer is handling: one timer per consumer
 * that tells the bus "working" for each delivery in flight every `intervalMs` (half the ack
 * wait), so a slow handler keeps its delivery. One per consumer rather than a timer and an
 * AbortController per delivery, which cost a DOMException on every event (D331).
 */
export class DeliveryHeartbeat {
  private readonly inFlight = new Set<Delivery>();
  private loop: Promise<void> | undefined;
  private beating: AbortController | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly intervalMs: number,
  ) {}

  /** Beats (on the injected clock) until `stop`. */
  start(): void {
    if (this.beating) return;
    const beating = new AbortController();
    this.beating = beating;
    const { signal } = beating;
    this.loop = (async () => {
      while (!signal.aborted) {
        await this.clock.sleep(this.intervalMs, signal);
        if (signal.aborted) return;
        for (const delivery of this.inFlight) void delivery.working().catch(() => undefined);
      }
    })();
  }

  /** Runs `work` with `delivery` kept alive meanwhile. */
  async keepAlive<T>(delivery: Delivery, work: () => Promise<T>): Promise<T> {
    this.inFlight.add(delivery);
    try {
      return await work();
    } finally {
      this.inFlight.delete(delivery);
    }
  }

  /** Stops beating; call it once the handlers in flight are done. */
  async stop(): Promise<void> {
    this.beating?.abort();
    await this.loop;
    this.beating = undefined;
    this.loop = undefined;
  }
}
