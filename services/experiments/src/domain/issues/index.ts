export {
  ISSUE_DESCRIPTION_MAX_LENGTH,
  ISSUE_DESCRIPTION_MIN_LENGTH,
  ISSUE_REPORTABLE_FROM,
  MAX_ISSUES_PER_EXPERIMENT,
  type IssueReport,
  assertIssueAccepted,
  issueReport,
} from "./issue.js";
