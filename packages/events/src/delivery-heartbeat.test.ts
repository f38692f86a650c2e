import { FakeClock } from "@petri/testkit";
import { describe, expect, it } from "vitest";
import type { Delivery } from "./bus.js";
import { DeliveryHeartbeat } from "./delivery-heartbeat.js";

function delivery(): Delivery & { beats: number } {
  const d = {
    beats: 0,
    working: async () => {
      d.beats += 1;
    },
  };
  return d as unknown as Delivery & { beats: number };
}

describe("DeliveryHeartbeat", () => {
  it("tells the bus every interval that each delivery in flight is being worked on, and stops with it", async () => {
    const clock = new FakeClock();
    const heartbeat = new DeliveryHeartbeat(clock, 15_000);
    heartbeat.start();
    const slow = delivery();
    const quick = delivery();
    let finishSlow!: () => void;
    const slowWork = heartbeat.keepAlive(slow, () => new Promise<void>((resolve) => (finishSlow = resolve)));
    await heartbeat.keepAlive(quick, async () => undefined);

    await clock.advance(15_000);
    expect(slow.beats).toBe(1);
    await clock.advance(15_000);
    expect(slow.beats).toBe(2);
    expect(quick.beats).toBe(0); // done before the first beat

    finishSlow();
    await slowWork;
    await clock.advance(15_000);
    expect(slow.beats).toBe(2);

    const late = delivery();
    const lateWork = heartbeat.keepAlive(late, () => clock.sleep(60_000));
    await heartbeat.stop();
    await clock.advance(60_000);
    await lateWork;
    expect(late.beats).toBe(0);
    expect(clock.pendingSleeps).toBe(0);
  });

  it("returns what the work returns and lets its error through", async () => {
    const heartbeat = new DeliveryHeartbeat(new FakeClock(), 1_000);
    await expect(heartbeat.keepAlive(delivery(), async () => 7)).resolves.toBe(7);
    await expect(
      heartbeat.keepAlive(delivery(), async () => {
        throw new Error("handler failed");
      }),
    ).rejects.toThrow("handler failed");
  });
});
