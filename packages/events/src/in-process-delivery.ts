import type { EventEnvelope } from "@petri/contracts/common";
import type { Delivery } from "./bus.js";
import type { WakeSignal } from "./internal/async.js";

/** What settling a delivery of the in-process bus does to its row. */
export interface DeliverySettlement {
  ack(): Promise<void>;
  term(): Promise<void>;
  /** Moves the redelivery to `delayMs` from now. */
  reschedule(delayMs: number): Promise<void>;
  ackWaitMs: number;
  /** The consumer loop's: a nak changes when it must look again. */
  wake: WakeSignal;
}

/** One delivery of the in-process bus; settling it a second time does nothing, as on JetStream. */
export class InProcessDelivery implements Delivery {
  private settled = false;

  constructor(
    readonly envelope: EventEnvelope,
    readonly deliveryCount: number,
    private readonly ops: DeliverySettlement,
  ) {}

  async ack(): Promise<void> {
    if (this.settled) return;
    await this.ops.ack();
    this.settled = true;
  }

  async nak(delayMs = 0): Promise<void> {
    if (this.settled) return;
    await this.ops.reschedule(Math.max(0, delayMs));
    this.settled = true;
    this.ops.wake.notify(); // the consumer loop recomputes its next wake-up
  }

  async term(): Promise<void> {
    if (this.settled) return;
    await this.ops.term();
    this.settled = true;
  }

  async working(): Promise<void> {
    if (this.settled) return;
    await this.ops.reschedule(this.ops.ackWaitMs);
  }
}
