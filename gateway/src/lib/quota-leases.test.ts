import { QuotaPolicy } from "@petri/contracts/identity";
import { FakeClock } from "@petri/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Draw, DrawQuota, QuotaKey } from "./quota-draw.js";
import { QuotaLeases, drawSize, expectedDemand } from "./quota-leases.js";

const MINUTE = 60_000;
const DAY = 86_400_000;
const key: QuotaKey = { policy: QuotaPolicy.ACCOUNT, subject: "usr_1" };

/** A shared counter with a minute and a day window, like identity's, that records each draw. */
function counter(clock: FakeClock, minuteLimit = 100, dayLimit = 1_000) {
  const used = new Map<string, number>();
  const requests: number[] = [];
  const draw: DrawQuota = async (_key, requested): Promise<Draw> => {
    requests.push(requested);
    await Promise.resolve();
    const now = clock.now().getTime();
    const windows = [
      { name: "minute", ms: MINUTE, limit: minuteLimit },
      { name: "day", ms: DAY, limit: dayLimit },
    ].map((w) => {
      const start = Math.floor(now / w.ms) * w.ms;
      const id = `${w.name}:${start}`;
      return { ...w, id, start, used: used.get(id) ?? 0 };
    });
    const granted = Math.max(0, Math.min(requested, ...windows.map((w) => w.limit - w.used)));
    return {
      granted,
      windows: windows.map((w) => {
        used.set(w.id, w.used + granted);
        return {
          name: w.name,
          limit: w.limit,
          remaining: w.limit - w.used - granted,
          resetsAt: w.start + w.ms,
        };
      }),
    };
  };
  return { draw, requests };
}

describe("draw size", () => {
  it("follows the documented rule", () => {
    expect(drawSize(false, 100, 100)).toBe(1);
    expect(drawSize(true, 100, 99)).toBe(9);
    expect(drawSize(true, 1_000, 900)).toBe(90);
    expect(drawSize(true, 1_000_000, 1_000_000)).toBe(100); // the contract's bound per draw
    expect(drawSize(true, 1_000, 499)).toBe(1);
    expect(drawSize(true, 100, 50)).toBe(5);
    expect(drawSize(true, 100, 49)).toBe(1);
    expect(drawSize(true, 10, 9)).toBe(1); // floor(9/10) = 0, at least 1
  });

  it("is bounded by the demand seen so far in the window", () => {
    // One request in the first 30 s of a minute: about one more expected.
    expect(expectedDemand(1, 0, MINUTE, 30_000)).toBe(1);
    // Fifty requests in 10 s: far more than a draw.
    expect(expectedDemand(50, 0, MINUTE, 10_000)).toBe(250);
  });
});

describe("QuotaLeases", () => {
  it("admits exactly the limit, then refuses without drawing again until the window resets", async () => {
    const clock = new FakeClock();
    const { draw, requests } = counter(clock);
    const leases = new QuotaLeases({ draw, clock });
    const decisions = [];
    for (let i = 0; i < 120; i += 1) decisions.push(await leases.acquire(key));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(100);
    const drawsAtLimit = requests.length;
    // Far fewer draws than requests: the hot path is local.
    expect(drawsAtLimit).toBeLessThan(70);
    for (let i = 0; i < 50; i += 1) expect((await leases.acquire(key)).allowed).toBe(false);
    expect(requests.length).toBe(drawsAtLimit);

    await clock.advance(MINUTE);
    const next = await leases.acquire(key);
    expect(next.allowed).toBe(true);
    expect(next.resetAt).toBe(clock.now().getTime() + MINUTE);
  });

  it("serves a busy high-limit account (the custom tier) with one draw per hundred requests", async () => {
    const clock = new FakeClock();
    const { draw, requests } = counter(clock, 1_000_000, 10_000_000);
    const leases = new QuotaLeases({ draw, clock });
    for (let i = 0; i < 2_000; i += 1) expect((await leases.acquire(key)).allowed).toBe(true);
    expect(requests.length).toBeLessThanOrEqual(25);
    expect(Math.max(...requests)).toBe(100);
  });

  it("reports remaining that never increases within a window and reaches 0 exactly at the limit", async () => {
    const clock = new FakeClock();
    const { draw } = counter(clock);
    const leases = new QuotaLeases({ draw, clock });
    let previous = Number.POSITIVE_INFINITY;
    for (let i = 1; i <= 100; i += 1) {
      const decision = await leases.acquire(key);
      expect(decision.allowed).toBe(true);
      expect(decision.remaining).toBe(100 - i);
      expect(decision.remaining).toBeLessThanOrEqual(previous);
      previous = decision.remaining;
    }
  });

  it("lets concurrent requests share one draw", async () => {
    const clock = new FakeClock();
    const { draw, requests } = counter(clock);
    const leases = new QuotaLeases({ draw, clock });
    const decisions = await Promise.all(Array.from({ length: 40 }, () => leases.acquire(key)));
    expect(decisions.every((d) => d.allowed)).toBe(true);
    // The first draw is 1 (nothing known); the waiters behind it are served by very few more.
    expect(requests.length).toBeLessThanOrEqual(3);
    expect(new Set(decisions.map((d) => d.remaining)).size).toBe(40);
  });

  it("expires unspent tokens at the first window reset, so they are never spent in a later minute", async () => {
    const clock = new FakeClock();
    const { draw, requests } = counter(clock);
    const leases = new QuotaLeases({ draw, clock });
    for (let i = 0; i < 20; i += 1) await leases.acquire(key); // builds up a multi-token lease
    expect(Math.max(...requests)).toBeGreaterThan(1);
    await clock.advance(MINUTE);
    const before = requests.length;
    await leases.acquire(key);
    expect(requests.length).toBe(before + 1); // a fresh draw, not a leftover token
  });

  it("does not burn a light client's daily quota on tokens it never spends", async () => {
    const clock = new FakeClock();
    const { draw, requests } = counter(clock);
    const leases = new QuotaLeases({ draw, clock });
    // Two requests a minute for two hours.
    for (let minute = 0; minute < 120; minute += 1) {
      expect((await leases.acquire(key)).allowed).toBe(true);
      await clock.advance(30_000);
      expect((await leases.acquire(key)).allowed).toBe(true);
      await clock.advance(30_000);
    }
    const charged = requests.reduce((sum, n) => sum + n, 0);
    expect(charged).toBeLessThanOrEqual(240 * 1.1);
  });

  it("follows the day window when it binds, and blocks until the day resets", async () => {
    const clock = new FakeClock();
    const { draw } = counter(clock, 100, 150);
    const leases = new QuotaLeases({ draw, clock });
    for (let i = 0; i < 100; i += 1) await leases.acquire(key);
    await clock.advance(MINUTE);
    const first = await leases.acquire(key);
    expect(first).toMatchObject({ allowed: true, limit: 150, window: "day", remaining: 49 });
    for (let i = 0; i < 49; i += 1) expect((await leases.acquire(key)).allowed).toBe(true);
    const refused = await leases.acquire(key);
    expect(refused).toMatchObject({ allowed: false, limit: 150, remaining: 0, window: "day" });
    expect(refused.resetAt).toBe(DAY + new Date("2026-01-01T00:00:00Z").getTime());
  });

  it("rejects when a draw fails (the caller answers 503), and recovers on the next request", async () => {
    const clock = new FakeClock();
    const { draw } = counter(clock);
    let down = true;
    const leases = new QuotaLeases({
      draw: async (k, n) => {
        if (down) throw new Error("unreachable");
        return draw(k, n);
      },
      clock,
    });
    await expect(leases.acquire(key)).rejects.toThrow("unreachable");
    down = false;
    expect((await leases.acquire(key)).allowed).toBe(true);
  });

  it("never admits more than granted, whatever the arrival pattern (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            gapMs: fc.oneof(fc.integer({ min: 0, max: 3_000 }), fc.integer({ min: 3_000, max: 30_000 })),
            burst: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 40 })),
          }),
          {
            minLength: 1,
            maxLength: 60,
          },
        ),
        async (pattern) => {
          const clock = new FakeClock();
          const { draw } = counter(clock, 50, 400);
          const leases = new QuotaLeases({ draw, clock });
          const admittedPerMinute = new Map<number, number>();
          const lastRemaining = new Map<number, number>();
          for (const { gapMs, burst } of pattern) {
            await clock.advance(gapMs);
            const minute = Math.floor(clock.now().getTime() / MINUTE);
            await Promise.all(
              Array.from({ length: burst }, () =>
                leases.acquire(key).then((d) => {
                  if (!d.allowed) return;
                  admittedPerMinute.set(minute, (admittedPerMinute.get(minute) ?? 0) + 1);
                  // In the order tokens were taken, remaining never goes up within a window.
                  const previous = lastRemaining.get(d.resetAt);
                  if (previous !== undefined) expect(d.remaining).toBeLessThan(previous);
                  lastRemaining.set(d.resetAt, d.remaining);
                }),
              ),
            );
          }
          for (const admitted of admittedPerMinute.values()) expect(admitted).toBeLessThanOrEqual(50);
          const total = [...admittedPerMinute.values()].reduce((a, b) => a + b, 0);
          expect(total).toBeLessThanOrEqual(400);
        },
      ),
      { numRuns: 100 },
    );
  });
});
