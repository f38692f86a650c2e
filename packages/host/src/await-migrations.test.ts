import { createLogger, type Clock, type ReadinessReport } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { MIGRATIONS_CHECK, awaitMigrations } from "./await-migrations.js";

const logger = createLogger({ service: "test", level: "silent" });

/** Answers the given reports in turn (the last one repeats); counts the sleeps between looks. */
function scripted(reports: (ReadinessReport | Error)[]) {
  let looks = 0;
  let sleeps = 0;
  const hosted = {
    name: "identity",
    readiness: async () => {
      const next = reports[Math.min(looks, reports.length - 1)]!;
      looks += 1;
      if (next instanceof Error) throw next;
      return next;
    },
  };
  const clock: Clock = {
    now: () => new Date(0),
    sleep: async () => {
      sleeps += 1;
    },
  };
  return { hosted, clock, counts: () => ({ looks, sleeps }) };
}

const pending: ReadinessReport = {
  ready: false,
  checks: [{ name: MIGRATIONS_CHECK, ok: false, detail: "pending: 2026_01_01_0000_init" }],
};
const atHead: ReadinessReport = {
  ready: false,
  checks: [
    { name: MIGRATIONS_CHECK, ok: true },
    { name: "consumers", ok: false },
  ],
};

describe("awaitMigrations", () => {
  it("keeps looking while migrations are pending or unreadable, and resolves true at head", async () => {
    const { hosted, clock, counts } = scripted([pending, new Error("connection refused"), pending, atHead]);
    const signal = new AbortController().signal;
    await expect(awaitMigrations({ hosted, clock, logger, intervalMs: 1, signal })).resolves.toBe(true);
    expect(counts()).toEqual({ looks: 4, sleeps: 3 });
  });

  it("resolves false when shutdown aborts the wait", async () => {
    const { hosted, clock: base } = scripted([pending]);
    const controller = new AbortController();
    let sleeps = 0;
    const clock: Clock = {
      ...base,
      sleep: async () => {
        sleeps += 1;
        if (sleeps === 2) controller.abort();
      },
    };
    await expect(
      awaitMigrations({ hosted, clock, logger, intervalMs: 1, signal: controller.signal }),
    ).resolves.toBe(false);
    expect(sleeps).toBe(2);
  });
});
