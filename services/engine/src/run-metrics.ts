/**
 * Engine run metrics: how long a worker executed a run (from lease to its last write) and how
 * the run ended: completed, failed, timeout, released (the worker stopped; the run is queued
 * again) or lease_lost (deleted or taken over while running).
 */
import { SLOW_SECONDS_BUCKETS, histogram } from "@petri/service-kit";

export type RunEnd = "completed" | "failed" | "timeout" | "released" | "lease_lost";

const runDuration = histogram({
  name: "petri_engine_run_duration_seconds",
  help: "Time an engine worker spent executing a run, by how it ended; its _count is runs by outcome",
  labelNames: ["outcome"],
  buckets: SLOW_SECONDS_BUCKETS,
});

/** Starts timing a run; call the result once with how it ended. */
export function timeEngineRun(): (end: RunEnd) => void {
  const started = performance.now();
  return (end) => runDuration.labels(end).observe((performance.now() - started) / 1000);
}
