import { connect } from "node:net";
import { type IdleResult, measureIdle, waitForQuiet } from "./idle.js";
import { type RoundSize, runRound } from "./load.js";
import {
  type BenchResult,
  type Row,
  summarise,
  summariseIdle,
  summariseStart,
  summariseWebhooks,
} from "./report.js";
import {
  type Scenario,
  type ScenarioKey,
  helloScenario,
  petriScenarios,
  selectScenario,
} from "./scenarios.js";
import { preparePopulation } from "./setup.js";
import {
  type Target,
  startClusterTarget,
  startHello,
  startSelect,
  startStandaloneTarget,
} from "./targets.js";
import { type WebhookRoundResult, runWebhookRound } from "./webhook.js";
import { WebhookReceiver } from "./webhook-receiver.js";

export type Mode = "standalone" | "cluster";

export interface BenchOptions {
  modes: Mode[];
  rounds: number;
  round: RoundSize;
  /** Unmeasured requests per scenario before the first round (JIT, pools, caches); 0 for none. */
  warmupRequests: number;
  accounts: number;
  scenarios: readonly ScenarioKey[];
  /** Claims per round of the webhook row. */
  claims: number;
  /** The idle row's window, and the quiet before it. */
  idleSeconds: number;
  settleSeconds: number;
  log: (line: string) => void;
}

export function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

interface Side {
  target: Target;
  scenario: Scenario;
  row: Row;
}

/**
 * Starts the baselines, then each Petri mode in turn; for each mode, rounds of every load
 * scenario interleaved with the baselines' (the baselines' rows gather the rounds of every
 * mode), then in the same round the webhook claims and the idle window.
 */
export async function runBench(options: BenchOptions): Promise<BenchResult> {
  const { log } = options;
  const hello = await startHello();
  const select = await startSelect();
  const receiver = await WebhookReceiver.start();
  log(`baselines: B1 ${hello.baseUrl}, B2 ${select.baseUrl} (row ${select.rowBytes} bytes)`);
  const rows: Row[] = [];
  const result: BenchResult = { rows: [], webhooks: [], idle: [], starts: [], limits: new Map() };
  const b1: Side = {
    target: hello,
    scenario: helloScenario(hello.path),
    row: { target: "B1", scenario: "hello", rounds: [] },
  };
  const b2: Side = {
    target: select,
    scenario: selectScenario(select.path),
    row: { target: "B2", scenario: "pg primary-key select", rounds: [] },
  };
  rows.push(b1.row, b2.row);
  try {
    for (const mode of options.modes)
      await benchMode(mode, options, { baselines: [b1, b2], receiver, rows, result });
  } finally {
    await hello.stop();
    await select.stop();
    await receiver.close();
  }
  result.rows = summarise(rows);
  return result;
}

/** What the modes share: the baselines' sides, the webhook receiver, the rows and the result. */
interface BenchShared {
  baselines: Side[];
  receiver: WebhookReceiver;
  rows: Row[];
  result: BenchResult;
}

/** One Petri mode: started fresh, its rounds interleaved with the baselines', then stopped. */
async function benchMode(mode: Mode, options: BenchOptions, shared: BenchShared): Promise<void> {
  const { log } = options;
  const selected = (key: ScenarioKey) => options.scenarios.includes(key);
  log(`${mode}: starting`);
  const start = mode === "standalone" ? startStandaloneTarget : startClusterTarget;
  const petri = await start(shared.receiver.hostSettings);
  const webhookRounds: WebhookRoundResult[] = [];
  const idleRounds: IdleResult[] = [];
  try {
    log(`${mode}: ${petri.baseUrl}, started in ${petri.coldStartMs?.toFixed(0)} ms; preparing accounts`);
    const population = await preparePopulation(petri.baseUrl, options.accounts, log);
    shared.result.limits.set(mode, population.limits);
    log(`${mode}: ${population.limits} limits over ${population.requesters.length} requester(s)`);
    const sides: Side[] = petriScenarios(population, options.scenarios).map((scenario) => ({
      target: petri,
      scenario,
      row: { target: mode, scenario: scenario.name, rounds: [] },
    }));
    shared.rows.push(...sides.map((side) => side.row));
    const all = [...shared.baselines, ...sides];
    if (options.warmupRequests > 0)
      for (const side of all)
        await runRound(side.target, side.scenario, {
          connections: options.round.connections,
          requests: options.warmupRequests,
        });
    for (let round = 1; round <= options.rounds; round += 1) {
      for (const side of all) {
        const outcome = await runRound(side.target, side.scenario, options.round);
        side.row.rounds.push(outcome);
        log(
          `${mode} round ${round}: ${side.row.target} ${side.row.scenario}: ${outcome.requestsPerSecond.toFixed(0)} req/s, ` +
            `${outcome.cpuPerRequestTotal.toFixed(2)} CPU ms/req, SQL/req ${outcome.sqlPerRequest?.toFixed(1) ?? "n/a"}, ` +
            `non-2xx ${outcome.non2xx}, errors ${outcome.errors}, quiet ${outcome.drainSeconds.toFixed(1)} s after`,
        );
      }
      await roundExtras(mode, round, petri, population, options, shared.receiver, webhookRounds, idleRounds);
    }
  } finally {
    await petri.stop();
  }
  if (selected("webhook")) shared.result.webhooks.push(summariseWebhooks(mode, webhookRounds));
  if (selected("idle")) shared.result.idle.push(summariseIdle(mode, idleRounds, petri.sqlNotCounted));
  shared.result.starts.push(summariseStart(mode, petri.coldStartMs));
}

/** After a round's load: the webhook claims and the idle window, when selected. */
async function roundExtras(
  mode: Mode,
  round: number,
  petri: Awaited<ReturnType<typeof startStandaloneTarget>>,
  population: Awaited<ReturnType<typeof preparePopulation>>,
  options: BenchOptions,
  receiver: WebhookReceiver,
  webhookRounds: WebhookRoundResult[],
  idleRounds: IdleResult[],
): Promise<void> {
  const { log } = options;
  const selected = (key: ScenarioKey) => options.scenarios.includes(key);
  if (selected("webhook")) {
    // Claims are timed on a system that has caught up with the load rounds' events
    // and with the posts of the claimed experiments.
    const settle = async () => {
      const waited = await waitForQuiet(petri, 120);
      log(`${mode} round ${round}: quiet after ${waited.toFixed(1)} s`);
    };
    const claims = await runWebhookRound(petri.baseUrl, population, receiver, options.claims, settle);
    webhookRounds.push(claims);
    log(`${mode} round ${round}: webhook: ${claims.claims} claims, ${claims.missed} missed`);
  }
  if (selected("idle")) {
    const idle = await measureIdle(petri, options.idleSeconds, options.settleSeconds);
    idleRounds.push(idle);
    log(
      `${mode} round ${round}: idle: ${idle.cores.toFixed(3)} cores, ` +
        `${idle.statementsPerSecond?.toFixed(1) ?? "n/a"} SQL statements/s`,
    );
  }
}
