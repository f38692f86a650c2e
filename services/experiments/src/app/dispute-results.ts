import type { UnitOfWork } from "@petri/events";
import { type Clock, type Principal, newId } from "@petri/service-kit";
import { insertDispute } from "../db/disputes.js";
import { type ExperimentRecord, loadRecord } from "../db/experiment-records.js";
import { updateExperiment } from "../db/experiments.js";
import type { DisputeRow, ExperimentsDb } from "../db/schema.js";
import { assertDisputable, disputeClaim } from "../domain/disputes/index.js";
import { transition } from "../domain/lifecycle/transitions.js";
import { loadOwned, withStateRecheck } from "./experiment-access.js";
import { recordDisputed } from "./experiment-events.js";

/**
 * POST /experiments/{id}/dispute: the requester disputes the results, from pending_approval or
 * from completed within the dispute window (14 days after approval; 409
 * dispute_window_closed after it). The dispute (dsp_ id, status open) is created, the
 * experiment becomes disputed and ExperimentDisputed is recorded, in one transaction.
 *
 * The experiment changes first, with a compare-and-set on the status and version read: an
 * approval committed meanwhile makes this a 409 (exactly one of approve and dispute sent
 * together wins), and a second dispute never reaches the insert (the unique index on open
 * disputes is only the backstop).
 */
export function makeDisputeResults(deps: { clock: Clock; unitOfWork: UnitOfWork<ExperimentsDb> }) {
  return async function disputeResults(
    principal: Principal,
    input: { experimentId: string; reason: string; description: string; evidenceUrls: readonly string[] },
  ): Promise<{ experiment: ExperimentRecord; dispute: DisputeRow }> {
    const claim = disputeClaim(input);
    const now = deps.clock.now();
    const result = await deps.unitOfWork.run(async (trx) => {
      const current = await loadOwned(trx, principal, input.experimentId);
      const raisedFrom = assertDisputable(current, now);
      const updated = await withStateRecheck(
        trx,
        current.id,
        () =>
          updateExperiment(trx, current, {
            status: transition("dispute", current.status),
            updated_at: now,
          }),
        (after) => assertDisputable(after, now),
      );
      const dispute = await insertDispute(trx, {
        id: newId("dsp", now),
        experiment_id: current.id,
        requester_account_id: current.requester_account_id,
        // Results exist, so an operator was assigned (the table's checks guarantee it).
        operator_id: current.operator_id ?? "",
        reason: claim.reason,
        description: claim.description,
        evidence_urls: claim.evidenceUrls,
        status: "open",
        raised_from: raisedFrom,
        outcome: null,
        requester_amount_cents: null,
        operator_amount_cents: null,
        resolution_note: null,
        resolved_by: null,
        created_at: now,
        resolved_at: null,
      });
      const disputed = await loadRecord(trx, updated);
      await recordDisputed(trx, disputed, dispute, now);
      return { experiment: disputed, dispute };
    });
    return result;
  };
}
