export {
  FEEDBACK_MAX_LENGTH,
  RATING_MAX,
  RATING_MIN,
  type ApprovalTerms,
  approvalTerms,
  deliveredOnTime,
} from "./approval.js";
