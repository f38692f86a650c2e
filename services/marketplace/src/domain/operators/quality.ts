/**
 * Quality metrics computed by Petri from completed jobs (docs/intake-model.md): rates in 0..1,
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

/** What the stored quality adds to the metrics matching reads: how many ratings the average is of. */
export interface RecordedQuality extends QualityMetrics {
  ratings_count: number;
}

export const NEW_OPERATOR_QUALITY: RecordedQuality = { ...NEW_OPERATOR_METRICS, ratings_count: 0 };

/** Counts over an operator's job outcomes (one per experiment it delivered). */
export interface OutcomeTotals {
  /** Jobs whose results the requester approved. */
  completed: number;
  /** Of those, delivered by the deadline. */
  onTime: number;
  /** Approvals that carried a rating, and the sum of those ratings (1-5 each). */
  ratings: number;
  ratingSum: number;
  /** Jobs whose results were approved or disputed (results were delivered). */
  delivered: number;
  /** Disputed jobs, except disputes staff resolved wholly for the operator. */
  disputesAgainst: number;
}

/**
 * Quality metrics from outcome counts. Recomputed from every outcome of the operator on each
 * change, so it does not matter in which order, or how often, the events that set the
 * outcomes arrive. Nothing reports reruns yet, so rerun_rate stays 0.
 */
export function qualityFromOutcomes(totals: OutcomeTotals): RecordedQuality {
  const rate = (part: number, whole: number) => (whole > 0 ? Math.min(1, Math.max(0, part / whole)) : 0);
  return {
    on_time_rate: rate(totals.onTime, totals.completed),
    rerun_rate: 0,
    dispute_rate: rate(totals.disputesAgainst, totals.delivered),
    average_rating: totals.ratings > 0 ? totals.ratingSum / totals.ratings : null,
    total_jobs_completed: totals.completed,
    ratings_count: totals.ratings,
  };
}
