export {
  DISPUTABLE_FROM,
  DISPUTE_DESCRIPTION_MAX_LENGTH,
  DISPUTE_DESCRIPTION_MIN_LENGTH,
  DISPUTE_OTHER_DESCRIPTION_MIN_LENGTH,
  DISPUTE_WINDOW_DAYS,
  EVIDENCE_URL_MAX_LENGTH,
  MAX_EVIDENCE_URLS,
  type DisputeClaim,
  assertDisputable,
  disputeClaim,
  disputeWindowClosesAt,
} from "./dispute.js";
export { RESOLUTION_NOTE_MAX_LENGTH, type DisputeResolution, disputeResolution } from "./resolution.js";
