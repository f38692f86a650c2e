/**
 * Prometheus metrics: ONE registry per process (standalone hosts every service in one
 * process, so its series carry a `service` label where two services would otherwise collide).
 *
 * Metrics are defined where they are recorded (a module-level `counter(...)`, `histogram(...)`
 * or `sampledGauge(...)`); defining the same name twice returns the first definition, so a
 * module evaluated twice (tests, bundles) does not throw. Hot paths record through label
 * children bound once (`boundChildren`), never by building label objects per request.
 */
import client from "prom-client";

export const metricsRegistry = new client.Registry();

/** The exposition's Content-Type (Prometheus text format 0.0.4). */
export const METRICS_CONTENT_TYPE = metricsRegistry.contentType;

/** Seconds buckets for fast operations (RPCs, REST routes): 1 ms to 10 s. */
export const FAST_SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds buckets for background work (engine runs, lab submissions, webhook waits): 10 ms to 2 h. */
export const SLOW_SECONDS_BUCKETS = [0.01, 0.1, 0.5, 1, 5, 15, 60, 300, 900, 1800, 3600, 7200];

let processMetricsOn = false;

/**
 * How often the event-loop delay is sampled (ms). prom-client's 10 ms default wakes every
 * process 100 times a second for good, which was most of an idle process's CPU (D324); ten
 * samples a second still catch every stall long enough to matter.
 */
export const EVENT_LOOP_SAMPLE_MS = 100;

/**
 * prom-client's default metrics (CPU, resident memory, heap, event-loop delay, GC, handles),
 * prefixed `petri_`; idempotent.
 */
export function collectProcessMetrics(): void {
  if (processMetricsOn) return;
  processMetricsOn = true;
  client.collectDefaultMetrics({
    register: metricsRegistry,
    prefix: "petri_",
    eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS,
  });
}

/** The exposition of every metric of this process. */
export function renderMetrics(): Promise<string> {
  return metricsRegistry.metrics();
}

interface MetricConfig<L extends string> {
  name: string;
  help: string;
  labelNames?: readonly L[];
}

export function counter<L extends string = never>(config: MetricConfig<L>): client.Counter<L> {
  const existing = metricsRegistry.getSingleMetric(config.name);
  if (existing) return existing as client.Counter<L>;
  return new client.Counter<L>({
    name: config.name,
    help: config.help,
    labelNames: config.labelNames ?? [],
    registers: [metricsRegistry],
  });
}

export function histogram<L extends string = never>(
  config: MetricConfig<L> & { buckets: number[] },
): client.Histogram<L> {
  const existing = metricsRegistry.getSingleMetric(config.name);
  if (existing) return existing as client.Histogram<L>;
  return new client.Histogram<L>({
    name: config.name,
    help: config.help,
    labelNames: config.labelNames ?? [],
    buckets: config.buckets,
    registers: [metricsRegistry],
  });
}

export type MetricLabels<L extends string> = Partial<Record<L, string | number>>;

export interface GaugeSample<L extends string> {
  labels: MetricLabels<L>;
  value: number;
}

export interface SampledGauge<L extends string> {
  /**
   * Adds a source read at every scrape (a failing source is left out of that scrape); returns
   * the function that removes it (call it when what it reads stops).
   */
  addSource(read: () => Promise<readonly GaugeSample<L>[]> | readonly GaugeSample<L>[]): () => void;
}

const sampledGauges = new Map<string, SampledGauge<string>>();

/**
 * A gauge whose value is read when Prometheus scrapes (queue depths, backlogs, pool use):
 * nothing runs between scrapes. Several sources (one per service in standalone) add their
 * samples to the same gauge.
 */
export function sampledGauge<L extends string = never>(config: MetricConfig<L>): SampledGauge<L> {
  const known = sampledGauges.get(config.name);
  if (known) return known as SampledGauge<L>;
  type Source = () => Promise<readonly GaugeSample<L>[]> | readonly GaugeSample<L>[];
  const sources = new Set<Source>();
  new client.Gauge<L>({
    name: config.name,
    help: config.help,
    labelNames: config.labelNames ?? [],
    registers: [metricsRegistry],
    async collect() {
      const read = await Promise.allSettled([...sources].map(async (source) => source()));
      this.reset();
      for (const result of read) {
        if (result.status !== "fulfilled") continue;
        for (const sample of result.value) this.set(sample.labels, sample.value);
      }
    },
  });
  const gauge: SampledGauge<L> = {
    addSource(read) {
      const source: Source = read;
      sources.add(source);
      return () => sources.delete(source);
    },
  };
  sampledGauges.set(config.name, gauge as SampledGauge<string>);
  return gauge;
}

/**
 * One read shared by the gauges of a scrape: the first call starts it, calls within
 * `reuseMs` of its start get the same result (prom-client collects all gauges of a scrape
 * at once, so a query that feeds two gauges runs once).
 */
export function sharedRead<T>(read: () => Promise<T>, reuseMs = 1_000): () => Promise<T> {
  let last: { at: number; result: Promise<T> } | undefined;
  return () => {
    const now = performance.now();
    if (last && now - last.at < reuseMs) return last.result;
    const result = read();
    last = { at: now, result };
    result.catch(() => {
      if (last?.result === result) last = undefined;
    });
    return result;
  };
}

/**
 * Label children bound once per distinct key: `children.get(key, () => metric.labels(...))`
 * costs a Map lookup on the hot path instead of prom-client's label hashing.
 */
export class BoundChildren<T> {
  private readonly children = new Map<string, T>();
  constructor(private readonly limit = 10_000) {}

  get(key: string, bind: () => T): T {
    let child = this.children.get(key);
    if (child === undefined) {
      child = bind();
      // Keys come from bounded label sets; the limit only stops a bug from growing memory.
      if (this.children.size < this.limit) this.children.set(key, child);
    }
    return child;
  }
}
