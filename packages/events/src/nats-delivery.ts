import type { JsMsg } from "@nats-io/jetstream";
import type { EventEnvelope } from "@petri/contracts/common";
import type { Delivery } from "./bus.js";

/** One JetStream delivery; an ack waits for the server's confirmation. */
export class NatsDelivery implements Delivery {
  constructor(
    private readonly msg: JsMsg,
    readonly envelope: EventEnvelope,
  ) {}

  get deliveryCount(): number {
    return this.msg.info.deliveryCount;
  }

  async ack(): Promise<void> {
    const confirmed = await this.msg.ackAck();
    if (!confirmed) throw new Error(`ack of ${this.envelope.id} was not confirmed`);
  }

  async nak(delayMs?: number): Promise<void> {
    this.msg.nak(delayMs && delayMs > 0 ? delayMs : undefined);
  }

  async term(_reason?: string): Promise<void> {
    // A "+TERM <reason>" body needs nats-server >= 2.11; the runner records the reason itself.
    this.msg.term();
  }

  async working(): Promise<void> {
    this.msg.working();
  }
}
