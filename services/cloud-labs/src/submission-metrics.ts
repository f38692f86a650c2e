/**
 * Cloud-lab submission metrics: a submission's life from creation to its end (completed,
 * failed, cancelled), by provider and outcome (the histogram's _count is submissions by
 * outcome), and lab calls that failed.
 */
import { SLOW_SECONDS_BUCKETS, counter, histogram } from "@petri/service-kit";

const submissionDuration = histogram({
  name: "petri_cloudlab_submission_duration_seconds",
  help: "Time from a cloud-lab submission's creation to its final status, by provider and outcome",
  labelNames: ["provider", "outcome"],
  buckets: SLOW_SECONDS_BUCKETS,
});
const labCallFailures = counter({
  name: "petri_cloudlab_call_failures_total",
  help: "Calls to a lab's API that failed, by provider, call (submit, poll) and whether they are retried",
  labelNames: ["provider", "call", "retried"],
});

const FINAL = new Set(["completed", "failed", "cancelled"]);

/** Records a submission that reached `status` (only final statuses are recorded). */
export function countSubmissionEnd(
  row: { provider_id: string; created_at: Date },
  status: string,
  endedAt: Date,
): void {
  if (!FINAL.has(status)) return;
  submissionDuration
    .labels(row.provider_id, status)
    .observe(Math.max(0, endedAt.getTime() - row.created_at.getTime()) / 1000);
}

export function countLabCallFailure(provider: string, call: "submit" | "poll", retried: boolean): void {
  labCallFailures.labels(provider, call, retried ? "true" : "false").inc();
}
