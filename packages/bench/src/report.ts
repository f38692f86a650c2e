import { availableParallelism, cpus, loadavg, totalmem } from "node:os";
import type { RoundResult } from "./load.js";

/** Every round of one scenario against one side. */
export interface Row {
  target: string;
  scenario: string;
  rounds: RoundResult[];
}

export interface Summary {
  target: string;
  scenario: string;
  rounds: number;
  requestsPerSecond: number;
  /** Throughput against B2's (medians of the same run). */
  throughputVsB2: number;
  p50Ms: number;
  p99Ms: number;
  cpuMsPerRequest: number;
  cpuMin: number;
  cpuMax: number;
  /** The headline figure: CPU per request against B2's. */
  cpuVsB2: number;
  non2xx: number;
  errors: number;
  /** Median CPU ms per request of each process label. */
  byProcess: Map<string, number>;
}

const median = (values: number[]): number => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export function summarise(rows: Row[]): Summary[] {
  const partial = rows.map((row) => {
    const cpu = row.rounds.map((r) => r.cpuPerRequestTotal);
    const labels = new Set(row.rounds.flatMap((r) => [...r.cpuPerRequest.keys()]));
    return {
      target: row.target,
      scenario: row.scenario,
      rounds: row.rounds.length,
      requestsPerSecond: median(row.rounds.map((r) => r.requestsPerSecond)),
      p50Ms: median(row.rounds.map((r) => r.p50Ms)),
      p99Ms: median(row.rounds.map((r) => r.p99Ms)),
      cpuMsPerRequest: median(cpu),
      cpuMin: Math.min(...cpu),
      cpuMax: Math.max(...cpu),
      non2xx: row.rounds.reduce((sum, r) => sum + r.non2xx, 0),
      errors: row.rounds.reduce((sum, r) => sum + r.errors, 0),
      byProcess: new Map(
        [...labels].map((l) => [l, median(row.rounds.map((r) => r.cpuPerRequest.get(l) ?? NaN))]),
      ),
    };
  });
  const b2 = partial.find((s) => s.target === "B2");
  return partial.map((s) => ({
    ...s,
    throughputVsB2: b2 ? s.requestsPerSecond / b2.requestsPerSecond : NaN,
    cpuVsB2: b2 ? s.cpuMsPerRequest / b2.cpuMsPerRequest : NaN,
  }));
}

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  date: string;
  loadAverage: string;
}

export function machine(): Machine {
  return {
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model.trim() ?? "unknown",
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    date: new Date().toISOString(),
    loadAverage: loadavg()
      .map((l) => l.toFixed(2))
      .join(" "),
  };
}

const fixed = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : "n/a");

export function markdownTable(summaries: Summary[]): string {
  const lines = [
    "| side | scenario | req/s | throughput ÷ B2 | p50 ms | p99 ms | CPU ms/req, median (min–max) | **CPU/req ÷ B2** | non-2xx | errors | CPU ms/req by process |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const s of summaries) {
    const byProcess = [...s.byProcess]
      .sort((a, b) => b[1] - a[1])
      .map(([label, ms]) => `${label} ${fixed(ms)}`)
      .join(", ");
    lines.push(
      `| ${s.target} | ${s.scenario} | ${fixed(s.requestsPerSecond, 0)} | ${fixed(s.throughputVsB2, 3)}x | ${fixed(s.p50Ms, 1)} | ${fixed(s.p99Ms, 1)} | ${fixed(s.cpuMsPerRequest)} (${fixed(s.cpuMin)}–${fixed(s.cpuMax)}) | **${fixed(s.cpuVsB2, 1)}x** | ${s.non2xx} | ${s.errors} | ${byProcess} |`,
    );
  }
  return lines.join("\n");
}

export interface RunDescription {
  machine: Machine;
  command: string;
  rounds: number;
  roundSize: string;
  accounts: number;
  notes: string[];
}

export function markdownReport(summaries: Summary[], run: RunDescription): string {
  const m = run.machine;
  return [
    "# Performance",
    "",
    "Figures from `npm run bench` (packages/bench). Every figure is a ratio to, or alongside, the",
    "baselines measured in the same run: **B1** a bare Hono hello on @hono/node-server, **B2** Hono and",
    "one pg primary-key select of a ~3.5 KB JSON row. The sides are interleaved (every round runs B1,",
    "B2 and each Petri scenario in turn, then the next round), after one unmeasured warm-up per scenario.",
    "",
    "CPU per request is the utime+stime (from `/proc/<pid>/stat`) used during a round by every server",
    "process of the side, and by the PostgreSQL backends connected to its database (`pg_stat_activity`",
    "by database name; a backend that connected during a round counts whole, one that left is not",
    "counted), divided by the",
    "responses of that round. Standalone runs PGlite inside its one process, so its database work is in",
    "its own figure. nats-server (cluster) and the load generator are not counted. The spread is the",
    "minimum and maximum over rounds; req/s, p50 and p99 are medians over rounds.",
    "",
    "The load is spread over pro-tier accounts (1,000 requests a minute each; staff cannot yet set",
    "custom limits). `GET /health` is anonymous, 60 a minute per client address: the cluster's gateway",
    "is started trusting X-Forwarded-For and the bench spreads the addresses, but standalone does not",
    "read that setting, so its `/health` row is mostly 429 answers (see non-2xx) and measures the",
    "rate limiter rather than the health check.",
    "",
    "## Run",
    "",
    `- ${m.date}, \`${run.command}\``,
    `- machine: ${m.cpus} CPUs (${m.cpuModel}), ${m.memoryGiB} GiB memory, Node ${m.node}, load average at the end of the run ${m.loadAverage}`,
    `- ${run.rounds} round(s) of ${run.roundSize} per scenario; load spread over ${run.accounts} pro-tier accounts`,
    ...run.notes.map((note) => `- ${note}`),
    "",
    "## Results",
    "",
    markdownTable(summaries),
    "",
  ].join("\n");
}
