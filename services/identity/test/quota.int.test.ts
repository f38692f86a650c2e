/**
 * Shared rate-limit quotas (docs/api.md#limits): exact limits per window, the
 * day window binding after ten full minutes, no lost updates under concurrent draws from
 * several replicas, and purging of old counters. Same scenarios on PostgreSQL and PGlite;
 * time comes from the fake clock only.
 */
import { Code } from "@connectrpc/connect";
import { QuotaPolicy, Tier } from "@petri/contracts/identity";
import { afterAll, describe, expect, it } from "vitest";
import {
  ENGINES,
  type Identity,
  SYSTEM,
  identityOfBlock,
  jump,
  principalOf,
  registration,
  rejection,
  startIdentity,
} from "./support/harness.js";

let subjects = 0;
const subject = (label: string) => `${label}-${(subjects += 1)}`;
const iso = (seconds: bigint | undefined) => new Date(Number(seconds) * 1000).toISOString();

describe.each(ENGINES)("quotas on %s", (engine) => {
  let identity: Identity;
  let replica: Identity;

  identityOfBlock(engine, async (started, backend) => {
    identity = started;
    // A second replica on its own connection pool (PGlite: the same engine), same secrets and clock.
    replica = await startIdentity(await backend.connection(), identity.options, { clock: identity.clock });
    // 10:00:05 UTC: well inside a minute, so nothing below crosses a window edge by accident.
    await identity.clock.set("2026-03-02T10:00:05.000Z");
  });
  // Registered after the block's own hooks, so it runs before them: the replica stops first.
  afterAll(async () => {
    await replica?.stop();
  });

  const draw = (
    target: Identity,
    policy: QuotaPolicy,
    who: string,
    requested: number,
    tier = Tier.STANDARD,
  ) => target.as(SYSTEM).acquireQuota({ policy, subject: who, tier, requested });

  it("grants exactly the standard tier's 100 per minute, then 0 with the minute binding", async () => {
    const account = subject("usr");
    let granted = 0;
    for (let i = 0; i < 100; i += 1)
      granted += (await draw(identity, QuotaPolicy.ACCOUNT, account, 1)).granted;
    expect(granted).toBe(100);
    const refused = await draw(identity, QuotaPolicy.ACCOUNT, account, 1);
    expect(refused.granted).toBe(0);
    expect(refused.binding).toMatchObject({ name: "minute", limit: 100n, remaining: 0n });
    expect(iso(refused.binding!.resetsAt!.seconds)).toBe("2026-03-02T10:01:00.000Z");
    expect(refused.windows.map((w) => [w.name, w.limit, w.remaining])).toEqual([
      ["minute", 100n, 0n],
      ["day", 1000n, 900n],
    ]);
  });

  it("grants part of a draw when less remains, and draws from every window", async () => {
    const account = subject("usr");
    expect((await draw(identity, QuotaPolicy.ACCOUNT, account, 95)).granted).toBe(95);
    const partial = await draw(identity, QuotaPolicy.ACCOUNT, account, 10);
    expect(partial.granted).toBe(5);
    expect(partial.windows.map((w) => w.remaining)).toEqual([0n, 900n]);
  });

  it("uses each tier's limits, per account", async () => {
    for (const [tier, minute, day] of [
      [Tier.STANDARD, 100n, 1000n],
      [Tier.PRO, 1000n, 10000n],
      [Tier.AI_AGENT, 500n, 5000n],
    ] as const) {
      const result = await draw(identity, QuotaPolicy.ACCOUNT, subject("usr"), 1, tier);
      expect(result.windows.map((w) => w.limit)).toEqual([minute, day]);
      expect(result.binding).toMatchObject({ name: "minute", remaining: minute - 1n });
    }
  });

  it("lets the day window bind after ten full minutes (R2), until the next UTC day", async () => {
    const account = subject("usr");
    const start = identity.clock.now();
    for (let minute = 0; minute < 10; minute += 1) {
      const result = await draw(identity, QuotaPolicy.ACCOUNT, account, 100);
      expect(result.granted).toBe(100);
      await jump(identity, 60_000);
    }
    const refused = await draw(identity, QuotaPolicy.ACCOUNT, account, 1);
    expect(refused.granted).toBe(0);
    expect(refused.binding).toMatchObject({ name: "day", limit: 1000n, remaining: 0n });
    expect(iso(refused.binding!.resetsAt!.seconds)).toBe("2026-03-03T00:00:00.000Z");
    expect(refused.windows.find((w) => w.name === "minute")!.remaining).toBe(100n);
    // Back to where the other tests expect the clock.
    await identity.clock.set(start);
  });

  it("breaks a tie in remaining towards the window that resets later", async () => {
    const account = subject("usr");
    // Fill the day to 900 in earlier minutes, then take 100 in this one: both windows at 0.
    const start = identity.clock.now();
    await identity.clock.set("2026-03-02T09:00:00.000Z");
    for (let i = 0; i < 9; i += 1) {
      await draw(identity, QuotaPolicy.ACCOUNT, account, 100);
      await jump(identity, 60_000);
    }
    await identity.clock.set(start);
    const last = await draw(identity, QuotaPolicy.ACCOUNT, account, 100);
    expect(last.granted).toBe(100);
    expect(last.windows.map((w) => w.remaining)).toEqual([0n, 0n]);
    expect(last.binding!.name).toBe("day");
  });

  it("limits anonymous callers and failed authentications per source address", async () => {
    const address = subject("203.0.113.7");
    expect((await draw(identity, QuotaPolicy.ANONYMOUS, address, 100, Tier.UNSPECIFIED)).granted).toBe(60);
    const failures = await draw(identity, QuotaPolicy.AUTH_FAILURES, address, 100, Tier.UNSPECIFIED);
    expect(failures.granted).toBe(100);
    expect(failures.windows.map((w) => [w.name, w.limit])).toEqual([["minute", 1_000n]]);
    for (let i = 1; i < 10; i += 1)
      await draw(identity, QuotaPolicy.AUTH_FAILURES, address, 100, Tier.UNSPECIFIED);
    expect((await draw(identity, QuotaPolicy.AUTH_FAILURES, address, 1, Tier.UNSPECIFIED)).granted).toBe(0);
    // A new minute, a new window.
    await jump(identity, 60_000);
    expect((await draw(identity, QuotaPolicy.AUTH_FAILURES, address, 1, Tier.UNSPECIFIED)).granted).toBe(1);
    await jump(identity, -60_000);
  });

  it("limits failed authentications per credential and address pair, each pair on its own", async () => {
    const pair = subject("digest-a@203.0.113.8");
    const failures = await draw(identity, QuotaPolicy.CREDENTIAL_FAILURES, pair, 100, Tier.UNSPECIFIED);
    expect(failures.granted).toBe(20);
    expect(failures.windows.map((w) => [w.name, w.limit])).toEqual([["minute", 20n]]);
    expect((await draw(identity, QuotaPolicy.CREDENTIAL_FAILURES, pair, 1, Tier.UNSPECIFIED)).granted).toBe(
      0,
    );
    const other = subject("digest-b@203.0.113.8");
    expect((await draw(identity, QuotaPolicy.CREDENTIAL_FAILURES, other, 1, Tier.UNSPECIFIED)).granted).toBe(
      1,
    );
  });

  it("grants exactly the limit in total to 20 concurrent draws of 10 from two replicas", async () => {
    const account = subject("usr");
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        draw(i % 2 === 0 ? identity : replica, QuotaPolicy.ACCOUNT, account, 10),
      ),
    );
    const grants = results.map((r) => r.granted);
    expect(grants.reduce((a, b) => a + b, 0)).toBe(100);
    expect(grants.filter((g) => g === 10)).toHaveLength(10);
    expect(grants.filter((g) => g === 0)).toHaveLength(10);
    const rows = await identity.db
      .selectFrom("quota_usage")
      .select(["minute_used", "day_used"])
      .where("subject", "=", account)
      .execute();
    expect(rows).toEqual([{ minute_used: 100, day_used: 100 }]);
  });

  it("admits exactly the limit to 200 concurrent single draws from two replicas, every round", async () => {
    for (let round = 0; round < 2; round += 1) {
      const account = subject("usr");
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          draw(i % 2 === 0 ? identity : replica, QuotaPolicy.ACCOUNT, account, 1),
        ),
      );
      expect(results.reduce((sum, r) => sum + r.granted, 0)).toBe(100);
      // Every answer reports counts consistent with the grant it made.
      for (const r of results) expect(r.windows[0]!.remaining).toBeGreaterThanOrEqual(0n);
      expect(results.filter((r) => r.windows[0]!.remaining === 0n).length).toBeGreaterThanOrEqual(101);
    }
  });

  it("counts a draw from a replica whose minute is behind in the newer window, never resetting it", async () => {
    const account = subject("usr");
    const start = identity.clock.now();
    await identity.clock.set("2026-03-02T10:01:05.000Z");
    expect((await draw(identity, QuotaPolicy.ACCOUNT, account, 30)).granted).toBe(30);
    await identity.clock.set(start);
    const late = await draw(replica, QuotaPolicy.ACCOUNT, account, 80);
    expect(late.granted).toBe(70);
    expect(late.windows.map((w) => [w.name, w.remaining])).toEqual([
      ["minute", 0n],
      ["day", 900n],
    ]);
    expect(iso(late.windows[0]!.resetsAt!.seconds)).toBe("2026-03-02T10:02:00.000Z");
  });

  it("never over-admits under uneven concurrent draws (property over several rounds)", async () => {
    for (let round = 0; round < 5; round += 1) {
      const account = subject("usr");
      const sizes = Array.from({ length: 25 }, (_, i) => ((i * 7 + round * 3) % 13) + 1);
      const results = await Promise.all(
        sizes.map((n, i) => draw(i % 2 === 0 ? identity : replica, QuotaPolicy.ACCOUNT, account, n)),
      );
      const total = results.reduce((sum, r) => sum + r.granted, 0);
      expect(total).toBe(
        Math.min(
          100,
          sizes.reduce((a, b) => a + b, 0),
        ),
      );
      results.forEach((r, i) => expect(r.granted).toBeLessThanOrEqual(sizes[i]!));
    }
  });

  it("validates draws and is for the gateway only", async () => {
    const account = subject("usr");
    for (const requested of [0, 101]) {
      expect((await rejection(draw(identity, QuotaPolicy.ACCOUNT, account, requested))).code).toBe(
        Code.InvalidArgument,
      );
    }
    expect((await rejection(draw(identity, QuotaPolicy.ACCOUNT, account, 1, Tier.UNSPECIFIED))).code).toBe(
      Code.InvalidArgument,
    );
    expect((await rejection(draw(identity, QuotaPolicy.UNSPECIFIED, account, 1))).code).toBe(
      Code.InvalidArgument,
    );
    expect((await rejection(draw(identity, QuotaPolicy.ACCOUNT, "", 1))).code).toBe(Code.InvalidArgument);
    const request = { policy: QuotaPolicy.ACCOUNT, subject: account, tier: Tier.STANDARD, requested: 1 };
    for (const role of ["requester", "operator", "staff"] as const) {
      const error = await rejection(identity.as(principalOf({ id: account }, role)).acquireQuota(request));
      expect(error.code).toBe(Code.PermissionDenied);
    }
    expect((await rejection(identity.as().acquireQuota(request))).code).toBe(Code.Unauthenticated);
  });

  describe("the custom tier", () => {
    const staff = principalOf({ id: "usr_staff" }, "staff");
    const customAccount = async (perMinute: number, perDay: number) => {
      const { account } = await identity.as().registerAccount(registration("custom"));
      await identity.as(staff).updateAccountAccess({
        accountId: account!.id,
        tier: Tier.CUSTOM,
        rateLimits: { perMinute: BigInt(perMinute), perDay: BigInt(perDay) },
      });
      return account!.id;
    };

    it("draws against the account's own limits, read in the draw", async () => {
      const account = await customAccount(7, 9);
      const first = await draw(identity, QuotaPolicy.ACCOUNT, account, 5, Tier.CUSTOM);
      expect(first.granted).toBe(5);
      expect(first.windows.map((w) => [w.name, w.limit, w.remaining])).toEqual([
        ["minute", 7n, 2n],
        ["day", 9n, 4n],
      ]);
      expect((await draw(replica, QuotaPolicy.ACCOUNT, account, 5, Tier.CUSTOM)).granted).toBe(2);
      const refused = await draw(identity, QuotaPolicy.ACCOUNT, account, 1, Tier.CUSTOM);
      expect(refused.granted).toBe(0);
      expect(refused.binding).toMatchObject({ name: "minute", limit: 7n, remaining: 0n });

      // The day binds in the next minute.
      await jump(identity, 60_000);
      const next = await draw(identity, QuotaPolicy.ACCOUNT, account, 5, Tier.CUSTOM);
      expect(next.granted).toBe(2);
      expect(next.binding).toMatchObject({ name: "day", limit: 9n, remaining: 0n });
      await jump(identity, -60_000);
    });

    it("applies new limits at the next draw, without raising the credentials epoch", async () => {
      const account = await customAccount(3, 100);
      expect((await draw(identity, QuotaPolicy.ACCOUNT, account, 10, Tier.CUSTOM)).granted).toBe(3);
      const epochBefore = await epochOf(account);
      await identity.as(staff).updateAccountAccess({
        accountId: account,
        tier: Tier.CUSTOM,
        rateLimits: { perMinute: 8n, perDay: 100n },
      });
      expect(await epochOf(account)).toBe(epochBefore);
      const more = await draw(identity, QuotaPolicy.ACCOUNT, account, 10, Tier.CUSTOM);
      expect(more.granted).toBe(5);
      expect(more.binding).toMatchObject({ limit: 8n, remaining: 0n });
    });

    it("falls back to the standard limits for an account that is not custom (a stale credential)", async () => {
      const { account } = await identity.as().registerAccount(registration("plain"));
      const result = await draw(identity, QuotaPolicy.ACCOUNT, account!.id, 1, Tier.CUSTOM);
      expect(result.windows.map((w) => w.limit)).toEqual([100n, 1000n]);
    });

    it("admits exactly a high custom limit to many concurrent draws of 100 from two replicas", async () => {
      const account = await customAccount(5_000, 1_000_000);
      const results = await Promise.all(
        Array.from({ length: 80 }, (_, i) =>
          draw(i % 2 === 0 ? identity : replica, QuotaPolicy.ACCOUNT, account, 100, Tier.CUSTOM),
        ),
      );
      expect(results.reduce((sum, r) => sum + r.granted, 0)).toBe(5_000);
    });
  });

  const epochOf = async (accountId: string) =>
    (
      await identity.db
        .selectFrom("accounts")
        .select("credentials_epoch")
        .where("id", "=", accountId)
        .executeTakeFirstOrThrow()
    ).credentials_epoch;

  it("purges counters whose day window ended more than two days ago, on its timer too", async () => {
    const old = subject("usr");
    await draw(identity, QuotaPolicy.ACCOUNT, old, 1);
    const count = async (who: string) =>
      (await identity.db.selectFrom("quota_usage").select("subject").where("subject", "=", who).execute())
        .length;
    expect(await count(old)).toBe(1);

    // Two days and one hour later the day window ended less than two days ago: kept.
    await jump(identity, 49 * 3_600_000);
    const fresh = subject("usr");
    await draw(identity, QuotaPolicy.ACCOUNT, fresh, 1);
    await identity.service.purgeExpiredRecords();
    expect(await count(old)).toBe(1);
    expect(await count(fresh)).toBe(1);

    // One more day: the housekeeping timer (every 10 minutes of clock time) removes it.
    await jump(identity, 24 * 3_600_000);
    await expect.poll(() => count(old), { timeout: 10_000 }).toBe(0);
    expect(await count(fresh)).toBe(1);
  });
});
