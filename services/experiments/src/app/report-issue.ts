import type { UnitOfWork } from "@petri/events";
import { type Clock, type Principal, newId } from "@petri/service-kit";
import { type ExperimentRecord, loadRecord } from "../db/experiment-records.js";
import { updateExperiment } from "../db/experiments.js";
import { countIssues, insertIssue } from "../db/issues.js";
import type { ExperimentsDb, IssueRow } from "../db/schema.js";
import { assertIssueAccepted, issueReport } from "../domain/issues/index.js";
import { lockAssigned } from "./experiment-access.js";
import { recordIssueReported } from "./experiment-events.js";

/**
 * The assigned operator reports an issue (docs/api.md event "issue"): while claimed or
 * in_progress, at most 100 per experiment (409 issue_limit_reached beyond). The issue becomes
 * part of the experiment (Experiment.issues, so the requester sees it), its version moves and
 * IssueReported is recorded. The experiment row is locked, so concurrent reports count
 * against the limit one after the other.
 */
export function makeReportIssue(deps: { clock: Clock; unitOfWork: UnitOfWork<ExperimentsDb> }) {
  return async function reportIssue(
    principal: Principal,
    input: { experimentId: string; description: string; severity: string },
  ): Promise<{ experiment: ExperimentRecord; issue: IssueRow }> {
    const report = issueReport(input);
    const now = deps.clock.now();
    const result = await deps.unitOfWork.run(async (trx) => {
      const current = await lockAssigned(trx, principal, input.experimentId);
      assertIssueAccepted(current.status, await countIssues(trx, current.id));
      const issue = await insertIssue(trx, {
        id: newId("iss", now),
        experiment_id: current.id,
        description: report.description,
        severity: report.severity,
        reported_by: principal.accountId,
        reported_at: now,
      });
      const updated = await updateExperiment(trx, current, { updated_at: now });
      const record = await loadRecord(trx, updated);
      await recordIssueReported(trx, record, issue, now);
      return { experiment: record, issue };
    });
    return result;
  };
}
