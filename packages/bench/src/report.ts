import { availableParallelism, cpus, loadavg, totalmem } from "node:os";
import type { IdleResult } from "./idle.js";
import type { RoundResult } from "./load.js";
import type { WebhookRoundResult } from "./webhook.js";

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
  /** Median SQL statements per request, where the side counts them (NaN where not). */
  sqlPerRequest: number;
}

/** The claim -> first webhook attempt row of one mode, over every claim of every round. */
export interface WebhookSummary {
  target: string;
  claims: number;
  fromResponse: { p50Ms: number; p99Ms: number };
  fromRequest: { p50Ms: number; p99Ms: number };
  missed: number;
}

/** The idle row of one mode: medians over rounds, spread as min and max. */
export interface IdleSummary {
  target: string;
  rounds: number;
  seconds: number;
  cores: number;
  coresMin: number;
  coresMax: number;
  coresByProcess: Map<string, number>;
  /** NaN where statements are not counted (`sqlNotCounted` says why). */
  statementsPerSecond: number;
  statementsMin: number;
  statementsMax: number;
  sqlNotCounted: string | undefined;
  /** Resident memory at the end of the last idle window, bytes per process label. */
  rssByProcess: Map<string, number>;
}

export interface StartSummary {
  target: string;
  coldStartMs: number;
}

export interface BenchResult {
  rows: Summary[];
  webhooks: WebhookSummary[];
  idle: IdleSummary[];
  starts: StartSummary[];
  /** Per mode: one custom-limit account, or the load spread over pro accounts. */
  limits: Map<string, "custom" | "pro">;
}

const median = (values: number[]): number => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Nearest-rank percentile (p in 0..100) of `values`; NaN for none. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function summariseWebhooks(target: string, rounds: WebhookRoundResult[]): WebhookSummary {
  const fromResponse = rounds.flatMap((r) => r.fromResponseMs);
  const fromRequest = rounds.flatMap((r) => r.fromRequestMs);
  return {
    target,
    claims: rounds.reduce((sum, r) => sum + r.claims, 0),
    fromResponse: { p50Ms: percentile(fromResponse, 50), p99Ms: percentile(fromResponse, 99) },
    fromRequest: { p50Ms: percentile(fromRequest, 50), p99Ms: percentile(fromRequest, 99) },
    missed: rounds.reduce((sum, r) => sum + r.missed, 0),
  };
}

export function summariseIdle(
  target: string,
  rounds: IdleResult[],
  sqlNotCounted: string | undefined,
): IdleSummary {
  const cores = rounds.map((r) => r.cores);
  const statements = rounds.map((r) => r.statementsPerSecond ?? NaN);
  const labels = new Set(rounds.flatMap((r) => [...r.coresByProcess.keys()]));
  return {
    target,
    rounds: rounds.length,
    seconds: median(rounds.map((r) => r.seconds)),
    cores: median(cores),
    coresMin: Math.min(...cores),
    coresMax: Math.max(...cores),
    coresByProcess: new Map(
      [...labels].map((l) => [l, median(rounds.map((r) => r.coresByProcess.get(l) ?? NaN))]),
    ),
    statementsPerSecond: median(statements),
    statementsMin: Math.min(...statements),
    statementsMax: Math.max(...statements),
    sqlNotCounted,
    rssByProcess: rounds.at(-1)?.rssByProcess ?? new Map(),
  };
}

export function summariseStart(target: string, coldStartMs: number | undefined): StartSummary {
  return { target, coldStartMs: coldStartMs ?? NaN };
}

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
      sqlPerRequest: median(row.rounds.map((r) => r.sqlPerRequest ?? NaN)),
    };
  });
  const b2 = partial.find((s) => s.target === "B2");
  // CPU is read in clock ticks (10 ms): a short round of B2 can use less than one, and a ratio to
  // that zero is no figure (n/a in the table), not infinity.
  return partial.map((s) => ({
    ...s,
    throughputVsB2: b2 ? s.requestsPerSecond / b2.requestsPerSecond : NaN,
    cpuVsB2: b2 && b2.cpuMsPerRequest > 0 ? s.cpuMsPerRequest / b2.cpuMsPerRequest : NaN,
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
const times = (value: number, digits: number) =>
  Number.isFinite(value) ? `${value.toFixed(digits)}x` : "n/a";

export function markdownTable(summaries: Summary[]): string {
  const lines = [
    "| side | scenario | req/s | throughput ÷ B2 | p50 ms | p99 ms | CPU ms/req, median (min–max) | **CPU/req ÷ B2** | SQL/req | non-2xx | errors | CPU ms/req by process |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const s of summaries) {
    const byProcess = [...s.byProcess]
      .sort((a, b) => b[1] - a[1])
      .map(([label, ms]) => `${label} ${fixed(ms)}`)
      .join(", ");
    lines.push(
      `| ${s.target} | ${s.scenario} | ${fixed(s.requestsPerSecond, 0)} | ${times(s.throughputVsB2, 3)} | ${fixed(s.p50Ms, 1)} | ${fixed(s.p99Ms, 1)} | ${fixed(s.cpuMsPerRequest)} (${fixed(s.cpuMin)}–${fixed(s.cpuMax)}) | **${times(s.cpuVsB2, 1)}** | ${fixed(s.sqlPerRequest, 1)} | ${s.non2xx} | ${s.errors} | ${byProcess} |`,
    );
  }
  return lines.join("\n");
}

const megabytes = (bytes: number) => `${fixed(bytes / 2 ** 20, 0)} MB`;

export function webhookTable(webhooks: WebhookSummary[]): string {
  const lines = [
    "| side | claims | from claim response: p50 ms | p99 ms | from claim request: p50 ms | p99 ms | missed |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const w of webhooks)
    lines.push(
      `| ${w.target} | ${w.claims} | ${fixed(w.fromResponse.p50Ms, 1)} | ${fixed(w.fromResponse.p99Ms, 1)} | ${fixed(w.fromRequest.p50Ms, 1)} | ${fixed(w.fromRequest.p99Ms, 1)} | ${w.missed} |`,
    );
  return lines.join("\n");
}

export function idleTable(idle: IdleSummary[], starts: StartSummary[]): string {
  const lines = [
    "| side | cold start ms | idle cores, median (min–max) | idle SQL statements/s, median (min–max) | idle memory (PSS, every process) | PSS by process | idle cores by process |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const start of starts) {
    const i = idle.find((entry) => entry.target === start.target);
    if (!i) {
      lines.push(`| ${start.target} | ${fixed(start.coldStartMs, 0)} | not run | not run | not run | | |`);
      continue;
    }
    const petriRss = [...i.rssByProcess];
    const rssByProcess = [...i.rssByProcess]
      .sort((a, b) => b[1] - a[1])
      .map(([label, bytes]) => `${label} ${megabytes(bytes)}`)
      .join(", ");
    const coresByProcess = [...i.coresByProcess]
      .sort((a, b) => b[1] - a[1])
      .map(([label, cores]) => `${label} ${fixed(cores, 3)}`)
      .join(", ");
    const statements = Number.isFinite(i.statementsPerSecond)
      ? `${fixed(i.statementsPerSecond, 1)} (${fixed(i.statementsMin, 1)}–${fixed(i.statementsMax, 1)})`
      : (i.sqlNotCounted ?? "n/a");
    lines.push(
      `| ${i.target} | ${fixed(start.coldStartMs, 0)} | ${fixed(i.cores, 3)} (${fixed(i.coresMin, 3)}–${fixed(i.coresMax, 3)}) | ${statements} | ${megabytes(petriRss.reduce((sum, [, bytes]) => sum + bytes, 0))} over ${petriRss.length} label(s) | ${rssByProcess} | ${coresByProcess} |`,
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
  claims: number;
  idleSeconds: number;
  settleSeconds: number;
  notes: string[];
}

function limitsLine(result: BenchResult, accounts: number): string {
  const modes = [...result.limits];
  if (modes.length === 0) return "- accounts: none prepared";
  return `- accounts: ${modes
    .map(([mode, limits]) =>
      limits === "custom"
        ? `${mode}: one requester on the custom tier (staff-set limits)`
        : `${mode}: spread over ${accounts} pro-tier requesters (the server refused the custom tier)`,
    )
    .join("; ")}`;
}

export function markdownReport(result: BenchResult, run: RunDescription): string {
  const m = run.machine;
  return [
    "# Performance",
    "",
    "Figures from `npm run bench` (packages/bench). Every figure is a ratio to, or alongside, the",
    "baselines measured in the same run: **B1** a bare Hono hello on @hono/node-server, **B2** Hono and",
    "one pg primary-key select of a ~3.5 KB JSON row. The sides are interleaved (every round runs B1,",
    "B2 and each Petri scenario in turn, then the next round), after one unmeasured warm-up per scenario.",
    "",
    "CPU per request is the utime+stime (from `/proc/<pid>/stat`) used by a round, from its first request",
    "until the side is quiet again (under 0.05 cores over half a second: the events its writes caused",
    "consumed too), by every server",
    "process of the side, and by the PostgreSQL backends connected to its database (`pg_stat_activity`",
    "by database name; a backend that connected during a round counts whole, one that left is not",
    "counted), divided by the responses of that round. Standalone counts its whole process tree: Node",
    "and the embedded PostgreSQL server it starts (postmaster, auxiliaries, backends). nats-server",
    "(cluster), the load generator and the",
    "statement-counting proxy are not counted. The spread is the minimum and maximum over rounds;",
    "req/s, p50 and p99 are medians over rounds.",
    "",
    "SQL/req counts the statements the cluster's services send (simple-protocol Query and",
    "extended-protocol Execute messages, read by a TCP proxy in front of PostgreSQL, so PostgreSQL's",
    "settings stay as they are) during a round, divided by its responses; background work running",
    "meanwhile (outbox relays, polls) is in it. Standalone's embedded server is reached on a port of",
    "its own choosing, with no proxy in between: not counted.",
    "",
    "The load comes from one requester on the custom tier (limits set by staff) where the server",
    "offers it, else it is spread over pro-tier requesters (1,000 requests a minute each); see Run.",
    "`GET /health` is anonymous and outside every rate limit; it answers from the services'",
    "readiness, asked at most once a second.",
    "",
    "**Claim -> first webhook attempt**: each round, open experiments asking for the `claimed` webhook",
    "are posted, then claimed one at a time by a verified operator; each claim is timed to the first",
    "request for its event at a receiver in the bench process (HTTPS on 127.0.0.1, reachable through",
    "the hosts' test-only PETRI_WEBHOOK_TEST_ALLOWLIST and PETRI_WEBHOOK_TEST_CA_FILE). The headline",
    "is from the claim's HTTP response; from the request's start is shown too. Percentiles are over",
    "every claim of every round; missed is the claims whose delivery had not arrived 10 s after the",
    "round's last claim.",
    "",
    "**Idle**: each round, after the load and the claims and a quiet settle period, a window with no",
    "traffic: the CPU cores its processes (and PostgreSQL backends) used on average, the SQL",
    "statements per second, and at its end the proportional memory (PSS, shared pages split between",
    "the processes mapping them) of every process, the database's included (standalone's embedded",
    "server; the cluster's backends). **Cold start** is from the start of the first server process to the",
    "first `/health` 200 (polled every 100 ms), on a fresh data directory (standalone) or a fresh",
    "database (cluster; start.sh's build is before it and not counted).",
    "",
    "## Run",
    "",
    `- ${m.date}, \`${run.command}\``,
    `- machine: ${m.cpus} CPUs (${m.cpuModel}), ${m.memoryGiB} GiB memory, Node ${m.node}, load average at the end of the run ${m.loadAverage}`,
    `- ${run.rounds} round(s) of ${run.roundSize} per scenario; ${run.claims} claims per round; idle windows of ${run.idleSeconds} s after ${run.settleSeconds} s of quiet`,
    limitsLine(result, run.accounts),
    ...run.notes.map((note) => `- ${note}`),
    "",
    "## Results",
    "",
    markdownTable(result.rows),
    "",
    ...(result.webhooks.length
      ? ["## Claim -> first webhook attempt", "", webhookTable(result.webhooks), ""]
      : []),
    "## Start-up and idle",
    "",
    idleTable(result.idle, result.starts),
    "",
  ].join("\n");
}
