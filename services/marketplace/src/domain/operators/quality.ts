/**
 * Quality metrics computed by Petri from completed jobs (intake-model.md): rates in 0..1,
 * average_rating 1..5 (null before the first rating), total_jobs_completed.
 */
export interface QualityMetrics {
  on_time_rate: number;
  rerun_rate: number;
  dispute_rate: number;
  average_rating: number | null;
  total_jobs_completed: number;
}

/** The metrics of a lab with no completed job. */
export const NEW_OPERATOR_METRICS: QualityMetrics = {
  on_time_rate: 0,
  rerun_rate: 0,
  dispute_rate: 0,
  average_rating: null,
  total_jobs_completed: 0,
};
