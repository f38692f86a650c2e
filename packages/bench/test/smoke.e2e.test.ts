import { postgresAvailable, requireInfra } from "@petri/testkit";
import { describe, expect, it } from "vitest";
import { runBench } from "../src/bench.js";
import { markdownTable } from "../src/report.js";

// The bench's smoke, as CI runs it: every scenario against standalone runs and reports a figure.
// Only that there are numbers is checked, never how large (the machine is shared and loaded).
// B2 needs PostgreSQL: skipped with a warning without it, a failure under CI=true.
const ready = requireInfra("PostgreSQL", await postgresAvailable());

describe.skipIf(!ready)("npm run bench -- --smoke (standalone)", () => {
  it("reports every row with numbers", { timeout: 240_000 }, async () => {
    const summaries = await runBench({
      modes: ["standalone"],
      rounds: 1,
      round: { connections: 2, requests: 10 },
      warmupRequests: 0,
      accounts: 2,
      mixed: true,
      log: () => undefined,
    });
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
    for (const s of summaries) {
      for (const value of [
        s.requestsPerSecond,
        s.p50Ms,
        s.p99Ms,
        s.cpuMsPerRequest,
        s.throughputVsB2,
        s.cpuVsB2,
      ])
        expect(Number.isFinite(value), `${s.target} ${s.scenario}`).toBe(true);
      expect(s.cpuMsPerRequest).toBeGreaterThanOrEqual(0);
      expect(s.errors, `${s.target} ${s.scenario}: connection errors`).toBe(0);
    }
    // The authenticated rows are answered, not refused (the setup's accounts and tiers work).
    for (const s of summaries.filter((s) => s.scenario !== "GET /health"))
      expect(s.non2xx, s.scenario).toBe(0);
    const table = markdownTable(summaries);
    for (const s of summaries) expect(table).toContain(`| ${s.target} | ${s.scenario} |`);
  });
});
