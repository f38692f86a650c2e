// `npm run bench`: Petri against its baselines; see packages/bench/README.md for the options.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { postgresAvailable } from "@petri/testkit";
import { type Mode, reachable, runBench } from "./bench.js";
import { repoRoot } from "./processes.js";
import { machine, markdownReport } from "./report.js";
import { SCENARIO_KEYS, type ScenarioKey } from "./scenarios.js";
import { OPERATOR_CAPACITY } from "./setup.js";

const HELP = `npm run bench -- [options]

Petri (standalone and cluster) against baselines B1 (Hono hello) and B2 (Hono + one pg select),
interleaved rounds, CPU per request from /proc; prints a Markdown report on stdout.

  --modes standalone,cluster   which Petri modes (default: standalone, and cluster if NATS runs)
  --scenarios a,b,...          of ${SCENARIO_KEYS.join(",")} (default: all)
  --rounds N                   rounds per scenario (default 3; smoke 1)
  --duration S                 seconds per load round (default 5)
  --connections N              concurrent connections (default 10; smoke 2)
  --accounts N                 pro-tier requesters when the server has no custom tier (default 12)
  --claims N                   claims per round of the webhook row (default 20; smoke 2)
  --idle S                     seconds of the idle window (default 20; smoke 1)
  --settle S                   quiet seconds before the idle window (default 5; smoke 0)
  --smoke                      a small fixed amount of work per scenario (also PETRI_BENCH_SMOKE=1)
  --write                      also write the report to docs/performance.md
  --note TEXT                  a line for the report's Run section (repeatable)
  --help                       this text`;

const { values } = parseArgs({
  options: {
    modes: { type: "string" },
    scenarios: { type: "string" },
    rounds: { type: "string" },
    duration: { type: "string" },
    connections: { type: "string" },
    accounts: { type: "string" },
    claims: { type: "string" },
    idle: { type: "string" },
    settle: { type: "string" },
    smoke: { type: "boolean", default: process.env.PETRI_BENCH_SMOKE === "1" },
    write: { type: "boolean", default: false },
    note: { type: "string", multiple: true, default: [] },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  console.log(HELP);
  process.exit(0);
}

const whole = (name: string, value: string | undefined, fallback: number, least: number): number => {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < least)
    throw new Error(`--${name} must be an integer of at least ${least}, got ${value}`);
  return number;
};
const positive = (name: string, value: string | undefined, fallback: number) =>
  whole(name, value, fallback, 1);

const scenarios = (values.scenarios?.split(",").map((key) => key.trim()) ?? [
  ...SCENARIO_KEYS,
]) as ScenarioKey[];
for (const key of scenarios)
  if (!SCENARIO_KEYS.includes(key))
    throw new Error(`--scenarios: unknown scenario ${key} (known: ${SCENARIO_KEYS.join(", ")})`);

if (!(await postgresAvailable())) {
  console.error(
    "bench: PostgreSQL is needed (B2, cluster): set PETRI_TEST_DATABASE_URL or start it on 127.0.0.1:5432",
  );
  process.exit(1);
}
const modes = (values.modes?.split(",") ?? [
  "standalone",
  ...((await reachable(4222)) ? ["cluster"] : []),
]) as Mode[];
for (const mode of modes)
  if (mode !== "standalone" && mode !== "cluster") throw new Error(`--modes: unknown mode ${mode}`);

// The smoke proves every scenario runs and reports: one small round of a fixed number of
// requests (bounded work, whatever the machine's speed), no warm-up. Its req/s mean little:
// autocannon ends a counted run on its one-second tick.
const smoke = values.smoke;
const rounds = positive("rounds", values.rounds, smoke ? 1 : 3);
const connections = positive("connections", values.connections, smoke ? 2 : 10);
const duration = positive("duration", values.duration, 5);
const accounts = positive("accounts", values.accounts, smoke ? 2 : 12);
const claims = positive("claims", values.claims, smoke ? 2 : 20);
if (claims * rounds > OPERATOR_CAPACITY)
  throw new Error(
    `--claims x --rounds: at most ${OPERATOR_CAPACITY} claims in a run (the operator's capacity)`,
  );
const idleSeconds = positive("idle", values.idle, smoke ? 1 : 20);
const settleSeconds = whole("settle", values.settle, smoke ? 0 : 5, 0);
const round = smoke ? { connections, requests: 20 } : { connections, durationSeconds: duration };
const result = await runBench({
  modes,
  rounds,
  round,
  warmupRequests: smoke ? 0 : 50,
  accounts,
  scenarios,
  claims,
  idleSeconds,
  settleSeconds,
  log: (line) => console.error(line),
});
const report = markdownReport(result, {
  machine: machine(),
  command: `npm run bench -- ${process.argv.slice(2).join(" ")}`.trim(),
  rounds,
  roundSize: smoke
    ? `${round.requests} requests over ${connections} connections`
    : `${duration} s at ${connections} connections`,
  accounts,
  claims,
  idleSeconds,
  settleSeconds,
  notes: values.note,
});
console.log(report);
if (values.write) writeFileSync(path.join(repoRoot, "docs/performance.md"), report);
