/**
 * The error texts of operations on one of the caller's experiments, written once so that every
 * route file documenting such an operation (experiments, results, matches, webhook deliveries)
 * tells clients the same thing.
 */
export const EXPERIMENT_NOT_FOUND =
  "No such experiment of yours (not_found); another account's experiment is 404 too";
export const NOT_THE_REQUESTER = "Not the requester of this experiment (forbidden)";
