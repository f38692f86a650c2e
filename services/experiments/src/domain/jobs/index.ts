export { type JobRequirements, jobRequirementsOf, templateFor } from "./job-requirements.js";
export {
  CLAIM_NOTES_MAX_LENGTH,
  DEFAULT_DEADLINE_DAYS,
  type ClaimInput,
  type ClaimTerms,
  alreadyClaimed,
  assertClaimable,
  assertIsJob,
  claimDeadline,
  claimMayRevealState,
  claimTerms,
} from "./claim.js";
export { ACTIVE_JOB_STATUSES, JOB_HIDDEN_STATUSES, isActiveJobStatus } from "./active-jobs.js";
