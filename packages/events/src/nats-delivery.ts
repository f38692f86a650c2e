import type { JsMsg } from "@nats-io/jetstream";
import type { EventEnvelope } from "@petri/contracts/common";
import type { Delivery } from "./bus.js";

/**
 * One JetStream delivery. An ack is sent without waiting for the server's confirmation
 * (D320): the inbox row committed before it makes a redelivery of a lost ack a no-op.
 */
export class NatsDelivery implements Delivery {
  constructor(
    private readonly msg: JsMsg,
    readonly envelope: EventEnvelope,
  ) {}

  get deliveryCount(): number {
    return this.msg.info.deliveryCount;
  }

  async ack(): Promise<void> {
    this.msg.ack();
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
