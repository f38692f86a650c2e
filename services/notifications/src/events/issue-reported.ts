/** petri.experiments.issue_reported -> the "issue" webhook: the issue's id, severity and (cut) description. */
import type { EventEnvelope } from "@petri/contracts/common";
import type { IssueReported } from "@petri/contracts/experiments";
import type { ExperimentEventFacts } from "../app/schedule-webhook-delivery.js";
import { cutText } from "../domain/payload.js";
import { experimentFacts, isoTime } from "./experiment-facts.js";

export function issueFacts(envelope: EventEnvelope, event: IssueReported): ExperimentEventFacts {
  const issue = event.issue;
  return experimentFacts(envelope, event.experiment, "issue", {
    issue: issue
      ? {
          id: issue.id,
          severity: issue.severity,
          description: cutText(issue.description),
          reported_at: isoTime(issue.reportedAt),
        }
      : null,
  });
}
