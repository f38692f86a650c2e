import type { UnitOfWork } from "@petri/events";
import type { Clock, Principal } from "@petri/service-kit";
import { updateExperiment } from "../db/experiments.js";
import { type ExperimentRecord, loadRecord } from "../db/experiment-records.js";
import type { ExperimentsDb } from "../db/schema.js";
import { acceptProposal, withAcceptedProtocol } from "../domain/lifecycle/protocol-design.js";
import { transition } from "../domain/lifecycle/transitions.js";
import { lockOwned } from "./experiment-access.js";
import { recordUpdatedAndOpened } from "./experiment-events.js";
import { acceptIntake } from "./intake.js";
import { estimateColumns, priceRequest } from "./pricing.js";

/**
 * The requester accepts the pending protocol proposal (409 no_pending_proposal when there is
 * none awaiting a decision): the proposal becomes the request's protocol (protocol.type
 * custom), the request is validated and re-priced, the hold becomes the new typical
 * estimate, and the experiment opens. Records ExperimentUpdated (the new hold) and
 * ExperimentOpened.
 */
export function makeAcceptProtocolProposal(deps: { clock: Clock; unitOfWork: UnitOfWork<ExperimentsDb> }) {
  return async function acceptProtocolProposal(
    principal: Principal,
    experimentId: string,
  ): Promise<ExperimentRecord> {
    const now = deps.clock.now();
    const row = await deps.unitOfWork.run(async (trx) => {
      const current = await lockOwned(trx, principal, experimentId);
      const change = acceptProposal(
        {
          status: current.status,
          reviewReasons: current.review_reasons,
          proposal: current.protocol_proposal,
        },
        { requesterAccountId: principal.accountId, at: now },
      );
      const intake = acceptIntake(
        withAcceptedProtocol(current.request, change.proposal.protocol),
        "submit",
        now,
      );
      const estimate = await priceRequest(trx, intake.request, now);
      const updated = await updateExperiment(trx, current, {
        status: transition("accept_protocol", current.status),
        request: intake.request,
        raw_request: withAcceptedProtocol(current.raw_request, change.proposal.protocol),
        title: intake.title,
        ...estimateColumns(estimate),
        hold_cents: estimate.cost_typical_cents,
        safety_flags: intake.safetyFlags,
        protocol_proposal: change.proposal,
        proposal_comments: [...current.proposal_comments, change.comment],
        updated_at: now,
      });
      const record = await loadRecord(trx, updated);
      await recordUpdatedAndOpened(trx, record, now);
      return record;
    });
    return row;
  };
}
