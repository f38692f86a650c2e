import type { UnitOfWork } from "@petri/events";
import type { Clock, Principal } from "@petri/service-kit";
import { updateExperiment } from "../db/experiments.js";
import { type ExperimentRecord, loadRecord } from "../db/experiment-records.js";
import type { ExperimentsDb } from "../db/schema.js";
import { authorize } from "../domain/authorization.js";
import { assertReviewApprovable } from "../domain/lifecycle/protocol-design.js";
import { transition } from "../domain/lifecycle/transitions.js";
import { NOTE_MAX_LENGTH, optionalText } from "../domain/text.js";
import { loadVisible } from "./experiment-access.js";
import { recordOpened } from "./experiment-events.js";

/**
 * Staff approve a request in pending_review: it opens (routed to operators) and records
 * ExperimentOpened. The hold was taken at submission and does not change. A protocol design
 * request cannot be approved this way (409 protocol_proposal_required): it opens when the
 * requester accepts a proposed protocol.
 */
export function makeApproveReview(deps: { clock: Clock; unitOfWork: UnitOfWork<ExperimentsDb> }) {
  return async function approveReview(
    principal: Principal,
    input: { experimentId: string; note: string },
  ): Promise<ExperimentRecord> {
    authorize(principal, "staff");
    const note = optionalText("note", input.note, NOTE_MAX_LENGTH);
    const now = deps.clock.now();
    const row = await deps.unitOfWork.run(async (trx) => {
      const current = await loadVisible(trx, principal, input.experimentId, { lock: true });
      assertReviewApprovable({
        status: current.status,
        reviewReasons: current.review_reasons,
        proposal: null,
      });
      const updated = await updateExperiment(trx, current, {
        status: transition("approve_review", current.status),
        review_note: note === "" ? null : note,
        reviewed_by: principal.accountId,
        reviewed_at: now,
        updated_at: now,
      });
      const record = await loadRecord(trx, updated);
      await recordOpened(trx, record, now);
      return record;
    });
    return row;
  };
}
