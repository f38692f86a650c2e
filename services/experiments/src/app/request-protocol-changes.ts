import type { UnitOfWork } from "@petri/events";
import type { Clock, Principal } from "@petri/service-kit";
import { updateExperiment } from "../db/experiments.js";
import { type ExperimentRecord, loadRecord } from "../db/experiment-records.js";
import type { ExperimentsDb } from "../db/schema.js";
import { requestChanges } from "../domain/lifecycle/protocol-design.js";
import { NOTE_MAX_LENGTH, requiredText } from "../domain/text.js";
import { lockOwned } from "./experiment-access.js";

/**
 * The requester asks for changes to the proposed protocol (comments 1..2000 characters): the
 * experiment stays pending_review, the proposal becomes "changes_requested" and the comments
 * join the proposal's discussion; staff may then propose a new revision. No event: the
 * status does not change and nothing is held or released (the staff queue reads the row).
 */
export function makeRequestProtocolChanges(deps: { clock: Clock; unitOfWork: UnitOfWork<ExperimentsDb> }) {
  return async function requestProtocolChanges(
    principal: Principal,
    input: { experimentId: string; comments: string },
  ): Promise<ExperimentRecord> {
    const comments = requiredText("comments", input.comments, NOTE_MAX_LENGTH);
    const now = deps.clock.now();
    return deps.unitOfWork.run(async (trx) => {
      const current = await lockOwned(trx, principal, input.experimentId);
      const change = requestChanges(
        {
          status: current.status,
          reviewReasons: current.review_reasons,
          proposal: current.protocol_proposal,
        },
        { requesterAccountId: principal.accountId, comments, at: now },
      );
      const updated = await updateExperiment(trx, current, {
        protocol_proposal: change.proposal,
        proposal_comments: [...current.proposal_comments, change.comment],
        updated_at: now,
      });
      return loadRecord(trx, updated);
    });
  };
}
