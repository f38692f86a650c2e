// `npm run bench`: Petri against its baselines; see README.md (Performance) for the options.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { postgresAvailable } from "@petri/testkit";
import { type Mode, reachable, runBench } from "./bench.js";
import { repoRoot } from "./processes.js";
import { machine, markdownReport } from "./report.js";

const { values } = parseArgs({
  options: {
    modes: { type: "string" },
    rounds: { type: "string" },
    duration: { type: "string" },
    connections: { type: "string" },
    accounts: { type: "string" },
    smoke: { type: "boolean", default: process.env.PETRI_BENCH_SMOKE === "1" },
    write: { type: "boolean", default: false },
    note: { type: "string", multiple: true, default: [] },
  },
});

const positive = (name: string, value: string | undefined, fallback: number): number => {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1)
    throw new Error(`--${name} must be a positive integer, got ${value}`);
  return number;
};

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
const round = smoke ? { connections, requests: 20 } : { connections, durationSeconds: duration };
const summaries = await runBench({
  modes,
  rounds,
  round,
  warmupRequests: smoke ? 0 : 50,
  accounts,
  mixed: true,
  log: (line) => console.error(line),
});
const report = markdownReport(summaries, {
  machine: machine(),
  command: `npm run bench -- ${process.argv.slice(2).join(" ")}`.trim(),
  rounds,
  roundSize: smoke
    ? `${round.requests} requests over ${connections} connections`
    : `${duration} s at ${connections} connections`,
  accounts,
  notes: values.note,
});
console.log(report);
if (values.write) writeFileSync(path.join(repoRoot, "docs/performance.md"), report);
