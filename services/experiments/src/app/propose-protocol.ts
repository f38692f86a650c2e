import type { UnitOfWork } from "@petri/events";
import { type Clock, type Principal, ValidationError } from "@petri/service-kit";
import { updateExperiment } from "../db/experiments.js";
import { type ExperimentRecord, loadRecord } from "../db/experiment-records.js";
import type { ExperimentsDb } from "../db/schema.js";
import { authorize } from "../domain/authorization.js";
import { proposeProtocol, withAcceptedProtocol } from "../domain/lifecycle/protocol-design.js";
import { isJsonObject } from "../domain/patch.js";
import { NOTE_MAX_LENGTH, optionalText } from "../domain/text.js";
import { loadVisible } from "./experiment-access.js";
import { recordProtocolProposed } from "./experiment-events.js";
import { acceptIntake, parseJsonText } from "./intake.js";
import { priceRequest } from "./pricing.js";

/**
 * Staff propose a protocol for a protocol-design request (pending_review with the review
 * reason protocol_design_requested; 409 protocol_design_not_requested otherwise). The
 * proposal (the shape of a request's custom_protocol) must make the request valid: the
 * request with it as a custom protocol is validated in full (422 / 403 otherwise) and priced,
 * so the requester sees what accepting would cost. It becomes a new revision of the
 * proposal (replacing any earlier one); the status stays pending_review; ProtocolProposed.
 */
export function makeProposeProtocol(deps: { clock: Clock; unitOfWork: UnitOfWork<ExperimentsDb> }) {
  return async function proposeProtocolUseCase(
    principal: Principal,
    input: { experimentId: string; protocolJson: string; note: string },
  ): Promise<ExperimentRecord> {
    authorize(principal, "staff");
    const protocol = parseJsonText(input.protocolJson, "the protocol");
    if (!isJsonObject(protocol))
      throw new ValidationError("the protocol must be a JSON object", [
        { field: "protocol", code: "invalid_value", message: "protocol must be a JSON object" },
      ]);
    const note = optionalText("note", input.note, NOTE_MAX_LENGTH);
    const now = deps.clock.now();
    const row = await deps.unitOfWork.run(async (trx) => {
      const current = await loadVisible(trx, principal, input.experimentId, { lock: true });
      const state = {
        status: current.status,
        reviewReasons: current.review_reasons,
        proposal: current.protocol_proposal,
      };
      // State first (409), then the content (422): a proposal for the wrong experiment is refused as such.
      proposeProtocol(state, { protocol, note, staffAccountId: principal.accountId, at: now });
      const intake = acceptIntake(withAcceptedProtocol(current.request, protocol), "submit", now);
      const estimate = await priceRequest(trx, intake.request, now);
      const change = proposeProtocol(state, {
        protocol,
        note,
        staffAccountId: principal.accountId,
        at: now,
        estimatedCostCents: {
          low: estimate.cost_low_cents,
          typical: estimate.cost_typical_cents,
          high: estimate.cost_high_cents,
        },
      });
      const updated = await updateExperiment(trx, current, {
        protocol_proposal: change.proposal,
        proposal_comments: [...current.proposal_comments, change.comment],
        updated_at: now,
      });
      const record = await loadRecord(trx, updated);
      await recordProtocolProposed(trx, record, now);
      return record;
    });
    return row;
  };
}
