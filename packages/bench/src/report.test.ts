import { describe, expect, it } from "vitest";
import type { RoundResult } from "./load.js";
import {
  idleTable,
  markdownTable,
  percentile,
  summarise,
  summariseIdle,
  summariseWebhooks,
} from "./report.js";

describe("percentile (nearest rank)", () => {
  it("picks a sample, never interpolates", () => {
    const values = [5, 1, 4, 2, 3];
    expect(percentile(values, 50)).toBe(3);
    expect(percentile(values, 99)).toBe(5);
    expect(percentile(values, 0)).toBe(1);
    expect(percentile([], 50)).toBeNaN();
  });
});

describe("summaries of the webhook and idle rows", () => {
  it("pools every claim of every round and adds up the missed ones", () => {
    const summary = summariseWebhooks("cluster", [
      { claims: 2, fromResponseMs: [10, 30], fromRequestMs: [20, 40], missed: 0 },
      { claims: 2, fromResponseMs: [20], fromRequestMs: [30], missed: 1 },
    ]);
    expect(summary).toEqual({
      target: "cluster",
      claims: 4,
      fromResponse: { p50Ms: 20, p99Ms: 30 },
      fromRequest: { p50Ms: 30, p99Ms: 40 },
      missed: 1,
    });
  });

  it("says why statements are not counted, and sums every process's memory, the database's too", () => {
    const round = {
      seconds: 20,
      coresByProcess: new Map([["standalone", 0.01]]),
      cores: 0.01,
      statementsPerSecond: undefined,
      rssByProcess: new Map([
        ["standalone", 200 * 2 ** 20],
        ["postgres", 500 * 2 ** 20],
      ]),
    };
    const idle = summariseIdle("standalone", [round], "n/a (no proxy)");
    const table = idleTable([idle], [{ target: "standalone", coldStartMs: 1234 }]);
    expect(table).toContain(
      "| standalone | 1234 | 0.010 (0.010–0.010) | n/a (no proxy) | 700 MB over 2 label(s) |",
    );
  });
});

describe("ratios to B2", () => {
  const round = (cpuMs: number, requestsPerSecond: number): RoundResult => ({
    responses: 10,
    requestsPerSecond,
    p50Ms: 1,
    p99Ms: 2,
    non2xx: 0,
    errors: 0,
    cpuPerRequest: new Map([["server", cpuMs]]),
    cpuPerRequestTotal: cpuMs,
    sqlPerRequest: undefined,
    drainSeconds: 0,
  });

  it("divides CPU per request and throughput by B2's", () => {
    const [, gateway] = summarise([
      { target: "B2", scenario: "select", rounds: [round(0.5, 1000)] },
      { target: "standalone", scenario: "GET /health", rounds: [round(2, 250)] },
    ]);
    expect(gateway!.cpuVsB2).toBe(4);
    expect(gateway!.throughputVsB2).toBe(0.25);
  });

  it("gives no CPU ratio when B2 used less than one clock tick, never infinity", () => {
    const summaries = summarise([
      { target: "B2", scenario: "select", rounds: [round(0, 1000)] },
      { target: "standalone", scenario: "GET /health", rounds: [round(2, 250)] },
    ]);
    expect(summaries.map((s) => s.cpuVsB2)).toEqual([NaN, NaN]);
    expect(markdownTable(summaries)).toContain("**n/a**");
  });
});
