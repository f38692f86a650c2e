import { postgresAvailable, requireInfra } from "@petri/testkit";
import { describe, expect, it } from "vitest";
import { runBench } from "../src/bench.js";
import { idleTable, markdownTable, webhookTable } from "../src/report.js";
import { SCENARIO_KEYS } from "../src/scenarios.js";

// The bench's smoke, as CI runs it: every scenario against standalone runs and reports a figure.
// Only that there are numbers is checked, never how large (the machine is shared and loaded);
// the rows added for the claim -> webhook latency, idle and start-up are checked as present.
// B2 needs PostgreSQL: skipped with a warning without it, a failure under CI=true.
const ready = requireInfra("PostgreSQL", await postgresAvailable());

describe.skipIf(!ready)("npm run bench -- --smoke (standalone)", () => {
  it("reports every row with numbers", { timeout: 300_000 }, async () => {
    const result = await runBench({
      modes: ["standalone"],
      rounds: 1,
      round: { connections: 2, requests: 50 },
      warmupRequests: 0,
      accounts: 2,
      scenarios: SCENARIO_KEYS,
      claims: 2,
      idleSeconds: 1,
      settleSeconds: 0,
      log: () => undefined,
    });
    const summaries = result.rows;
    expect(summaries.map((s) => `${s.target} ${s.scenario}`)).toEqual([
      "B1 hello",
      "B2 pg primary-key select",
      "standalone GET /health",
      "standalone GET /auth/me",
      "standalone GET /experiments/{id}",
      "standalone GET /experiments?limit=20",
      "standalone POST /experiments",
      "standalone mixed requester/operator",
    ]);
    // A small round of B2 can use less CPU than one clock tick (twice in CI with 10 requests):
    // then every CPU ratio is n/a by design, and otherwise a number.
    const b2Measured = summaries.find((s) => s.target === "B2")!.cpuMsPerRequest > 0;
    for (const s of summaries) {
      for (const value of [s.requestsPerSecond, s.p50Ms, s.p99Ms, s.cpuMsPerRequest, s.throughputVsB2])
        expect(Number.isFinite(value), `${s.target} ${s.scenario}`).toBe(true);
      if (b2Measured) expect(Number.isFinite(s.cpuVsB2), `${s.target} ${s.scenario} CPU ÷ B2`).toBe(true);
      else expect(s.cpuVsB2, `${s.target} ${s.scenario} CPU ÷ B2 with B2 under one tick`).toBeNaN();
      expect(s.cpuMsPerRequest).toBeGreaterThanOrEqual(0);
      expect(s.errors, `${s.target} ${s.scenario}: connection errors`).toBe(0);
    }
    // The authenticated rows are answered, not refused (the setup's accounts and tiers work).
    for (const s of summaries.filter((s) => s.scenario !== "GET /health"))
      expect(s.non2xx, s.scenario).toBe(0);
    const table = markdownTable(summaries);
    for (const s of summaries) expect(table).toContain(`| ${s.target} | ${s.scenario} |`);

    // Present: the claims ran and were timed or counted missed, the idle window and the
    // cold start were measured. How fast any of it was is not the smoke's business.
    expect(result.limits.get("standalone")).toMatch(/^(custom|pro)$/);
    expect(result.webhooks.map((w) => w.target)).toEqual(["standalone"]);
    expect(result.webhooks[0]!.claims).toBe(2);
    expect(webhookTable(result.webhooks)).toContain("| standalone | 2 |");
    expect(result.idle.map((i) => i.target)).toEqual(["standalone"]);
    expect(Number.isFinite(result.idle[0]!.cores)).toBe(true);
    expect(result.idle[0]!.rssByProcess.get("standalone")).toBeGreaterThan(0);
    expect(result.starts.map((s) => s.target)).toEqual(["standalone"]);
    expect(Number.isFinite(result.starts[0]!.coldStartMs)).toBe(true);
    expect(idleTable(result.idle, result.starts)).toContain("| standalone |");
  });
});
