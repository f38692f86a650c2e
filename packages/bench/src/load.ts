import autocannon from "autocannon";
import { cpuDelta, sample } from "./cpu.js";
import { waitForQuiet } from "./idle.js";
import type { Scenario } from "./scenarios.js";
import type { Target } from "./targets.js";

/** How much load one round puts on a server: for a time, or a number of requests. */
export interface RoundSize {
  connections: number;
  durationSeconds?: number;
  requests?: number;
}

export interface RoundResult {
  responses: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Responses other than 2xx, and connection errors and timeouts. */
  non2xx: number;
  errors: number;
  /**
   * CPU milliseconds per response, per process label and in total, counted until the target
   * was quiet again: the work the requests left behind (their events) included.
   */
  cpuPerRequest: Map<string, number>;
  cpuPerRequestTotal: number;
  /** SQL statements per response, where the target counts them. */
  sqlPerRequest: number | undefined;
  /** Seconds from the last answer until the target was quiet. */
  drainSeconds: number;
}

/** The longest wait for a target to work off a round (a slower machine's POST backlog). */
const DRAIN_MAX_SECONDS = 180;

/**
 * One autocannon run against `target`, with the CPU its processes used for it: from the first
 * request until they are quiet again. A write's events are consumed after its answer (standalone
 * falls seconds behind under a round of POSTs); counting only the load window missed most of a
 * POST's cost and charged it to whatever round came next.
 */
export async function runRound(target: Target, scenario: Scenario, size: RoundSize): Promise<RoundResult> {
  let k = 0;
  const processesBefore = await target.processes();
  const before = sample(processesBefore);
  const statementsBefore = await target.sqlStatements?.();
  // autocannon's own duration is in whole seconds; a short round needs finer.
  const started = performance.now();
  const result = await autocannon({
    url: target.baseUrl,
    connections: size.connections,
    ...(size.requests === undefined ? { duration: size.durationSeconds ?? 5 } : { amount: size.requests }),
    timeout: 30,
    requests: [
      {
        setupRequest: (request) => {
          const next = scenario.request(k++);
          return { ...request, ...next, headers: { ...next.headers } };
        },
      },
    ],
  });
  const seconds = (performance.now() - started) / 1000;
  const drainSeconds = await waitForQuiet(target, DRAIN_MAX_SECONDS);
  const processes = new Map([...processesBefore, ...(await target.processes())]);
  const cpu = cpuDelta(processes, before, sample(processes));
  const statementsAfter = await target.sqlStatements?.();
  const responses = result["1xx"] + result["2xx"] + result["3xx"] + result["4xx"] + result["5xx"];
  const perRequest = new Map([...cpu].map(([label, ms]) => [label, responses ? ms / responses : NaN]));
  return {
    responses,
    requestsPerSecond: responses / seconds,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    cpuPerRequest: perRequest,
    cpuPerRequestTotal: [...perRequest.values()].reduce((sum, ms) => sum + ms, 0),
    sqlPerRequest:
      statementsBefore === undefined || statementsAfter === undefined || responses === 0
        ? undefined
        : (statementsAfter - statementsBefore) / responses,
    drainSeconds,
  };
}
