import { connect } from "node:net";
import { type RoundSize, runRound } from "./load.js";
import { type Row, type Summary, summarise } from "./report.js";
import { type Scenario, helloScenario, petriScenarios, selectScenario } from "./scenarios.js";
import { preparePopulation } from "./setup.js";
import {
  type Target,
  startClusterTarget,
  startHello,
  startSelect,
  startStandaloneTarget,
} from "./targets.js";

export type Mode = "standalone" | "cluster";

export interface BenchOptions {
  modes: Mode[];
  rounds: number;
  round: RoundSize;
  /** Unmeasured requests per scenario before the first round (JIT, pools, caches); 0 for none. */
  warmupRequests: number;
  accounts: number;
  mixed: boolean;
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
 * Starts the baselines, then each Petri mode in turn; for each mode, rounds of every scenario
 * interleaved with the baselines' (the baselines' rows gather the rounds of every mode).
 */
export async function runBench(options: BenchOptions): Promise<Summary[]> {
  const { log } = options;
  const hello = await startHello();
  const select = await startSelect();
  log(`baselines: B1 ${hello.baseUrl}, B2 ${select.baseUrl} (row ${select.rowBytes} bytes)`);
  const rows: Row[] = [];
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
    for (const mode of options.modes) {
      log(`${mode}: starting`);
      const petri = mode === "standalone" ? await startStandaloneTarget() : await startClusterTarget();
      try {
        log(`${mode}: ${petri.baseUrl}, preparing ${options.accounts} accounts`);
        const population = await preparePopulation(petri.baseUrl, options.accounts);
        const sides: Side[] = petriScenarios(population, { mixed: options.mixed }).map((scenario) => ({
          target: petri,
          scenario,
          row: { target: mode, scenario: scenario.name, rounds: [] },
        }));
        rows.push(...sides.map((side) => side.row));
        const all = [b1, b2, ...sides];
        if (options.warmupRequests > 0)
          for (const side of all)
            await runRound(side.target, side.scenario, {
              connections: options.round.connections,
              requests: options.warmupRequests,
            });
        for (let round = 1; round <= options.rounds; round += 1) {
          for (const side of all) {
            const result = await runRound(side.target, side.scenario, options.round);
            side.row.rounds.push(result);
            log(
              `${mode} round ${round}: ${side.row.target} ${side.row.scenario}: ${result.requestsPerSecond.toFixed(0)} req/s, ` +
                `${result.cpuPerRequestTotal.toFixed(2)} CPU ms/req, non-2xx ${result.non2xx}, errors ${result.errors}`,
            );
          }
        }
      } finally {
        await petri.stop();
      }
    }
  } finally {
    await hello.stop();
    await select.stop();
  }
  return summarise(rows);
}
