/**
 * The events the use cases record, in the transaction of the change they announce. Each
 * carries the experiment as it is after the change (event-carried state: status, estimate,
 * hold, review reasons, and the request JSON with its webhook preferences) plus the amounts
 * consumers act on (hold, refund, operator compensation). The envelope's aggregate version is
 * the experiment's version after the change; one change may record several events (submit
 * to open: ExperimentSubmitted and ExperimentOpened), which then share that version.
 *
 * The operator's side and the results follow the same rule: claimed, started, issue
 * reported, results submitted, approved, disputed, dispute resolved; each carries the whole
 * experiment (job, operator, payment, issues, dispute) plus what its consumers act on.
 *
 * A draft records ExperimentDrafted when it is saved, and nothing while it stays a draft: it
 * holds no money and starts nothing, but the hypotheses service answers "save the hypothesis of
 * experiment X" from its own view of these events, and must tell a draft (409) from an unknown
 * experiment (404) as the experiments service would (docs/decisions.md, D326).
 */
import type { DescMessage, MessageInitShape } from "@bufbuild/protobuf";
import { type EventSpec, events } from "@petri/contracts";
import { eventFor, recordEvent, recordEvents } from "@petri/events";
import { currentTraceparent } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { ExperimentRecord } from "../db/experiment-records.js";
import type { DisputeRow, ExperimentsDb, IssueRow } from "../db/schema.js";
import type { CancellationSettlement } from "../domain/lifecycle/cancellation.js";
import { disputeMessage, experimentMessage, operatorIssueMessage } from "../contract/experiment-message.js";

function meta(row: ExperimentRecord, now: Date) {
  const traceparent = currentTraceparent();
  return {
    aggregateId: row.id,
    aggregateVersion: row.version,
    occurredAt: now,
    ...(traceparent ? { traceparent } : {}),
  };
}

/** Records `spec` for the change that left the experiment as `row`, in `trx`, with `payload`. */
async function record<Desc extends DescMessage>(
  trx: Kysely<ExperimentsDb>,
  spec: EventSpec<Desc>,
  row: ExperimentRecord,
  now: Date,
  payload: MessageInitShape<Desc>,
): Promise<void> {
  await recordEvent(trx, spec, payload, meta(row, now));
}

/** A request was saved as a draft. */
export async function recordDrafted(
  trx: Kysely<ExperimentsDb>,
  row: ExperimentRecord,
  now: Date,
): Promise<void> {
  await record(trx, events.experiments.experimentDrafted, row, now, { experiment: experimentMessage(row) });
}

/** A request entered open or pending_review: ExperimentSubmitted (the hold), and ExperimentOpened when open. */
export async function recordSubmitted(
  trx: Kysely<ExperimentsDb>,
  row: ExperimentRecord,
  now: Date,
): Promise<void> {
  const experiment = experimentMessage(row);
  const recorded = [
    eventFor(
      events.experiments.experimentSubmitted,
      { experiment, holdAmountCents: BigInt(row.hold_cents) },
      meta(row, now),
    ),
  ];
  if (row.status === "open")
    recorded.push(eventFor(events.experiments.experimentOpened, { experiment }, meta(row, now)));
  await recordEvents(trx, recorded);
}

/** A reviewed or designed request became open. */
export async function recordOpened(
  trx: Kysely<ExperimentsDb>,
  row: ExperimentRecord,
  now: Date,
): Promise<void> {
  await record(trx, events.experiments.experimentOpened, row, now, { experiment: experimentMessage(row) });
}

/** Constraints, preferences, turnaround or protocol changed; the hold after re-estimating. */
export async function recordUpdated(
  trx: Kysely<ExperimentsDb>,
  row: ExperimentRecord,
  now: Date,
): Promise<void> {
  await record(trx, events.experiments.experimentUpdated, row, now, {
    experiment: experimentMessage(row),
    holdAmountCents: BigInt(row.hold_cents),
  });
}

/**
 * An accepted protocol proposal: re-estimated (ExperimentUpdated, the new hold) and open
 * (ExperimentOpened), one change, written in one outbox statement in that order.
 */
export async function recordUpdatedAndOpened(
  trx: Kysely<ExperimentsDb>,
  row: ExperimentRecord,
  now: Date,
): Promise<void> {
  const experiment = experimentMessage(row);
  await recordEvents(trx, [
    eventFor(
      events.experiments.experimentUpdated,
      { experiment, holdAmountCents: BigInt(row.hold_cents) },
      meta(row, now),
    ),
    eventFor(events.experiments.experimentOpened, { experiment }, meta(row, now)),
  ]);
}

/** Cancelled (by the requester, or rejected by review), with the refund and compensation to release. */
export async function recordCancelled(
  trx: Kysely<ExperimentsDb>,
  row: ExperimentRecord,
  settlement: CancellationSettlement,
  now: Date,
): Promise<void> {
  await record(trx, events.experiments.experimentCancelled, row, now, {
    experiment: experimentMessage(row),
    refundAmountCents: BigInt(settlement.refundCents),
    operatorCompensationCents: BigInt(settlement.operatorCompensationCents),
  });
}

/** Staff proposed a protocol for a design request. */
export async function recordProtocolProposed(
  trx: Kysely<ExperimentsDb>,
  row: ExperimentRecord,
  now: Date,
): Promise<void> {
  await record(trx, events.experiments.protocolProposed, row, now, { experiment: experimentMessage(row) });
}

/** An operator claimed an open experiment (docs/api.md event "claimed"). */
export async function recordClaimed(
  trx: Kysely<ExperimentsDb>,
  row: ExperimentRecord,
  now: Date,
): Promise<void> {
  await record(trx, events.experiments.experimentClaimed, row, now, { experiment: experimentMessage(row) });
}

/** The operator started work (docs/api.md event "started"). */
export async function recordStarted(
  trx: Kysely<ExperimentsDb>,
  row: ExperimentRecord,
  now: Date,
): Promise<void> {
  await record(trx, events.experiments.experimentStarted, row, now, { experiment: experimentMessage(row) });
}

/** The operator reported an issue (docs/api.md event "issue"). */
export async function recordIssueReported(
  trx: Kysely<ExperimentsDb>,
  row: ExperimentRecord,
  issue: IssueRow,
  now: Date,
): Promise<void> {
  await record(trx, events.experiments.issueReported, row, now, {
    experiment: experimentMessage(row),
    issue: operatorIssueMessage(issue),
  });
}

/** Results are in, pending approval (docs/api.md event "completed", results_available true). */
export async function recordResultsSubmitted(
  trx: Kysely<ExperimentsDb>,
  row: ExperimentRecord,
  fileCount: number,
  now: Date,
): Promise<void> {
  await record(trx, events.experiments.resultsSubmitted, row, now, {
    experiment: experimentMessage(row),
    fileCount,
  });
}

/**
 * The requester approved (docs/api.md event "approved"). This event is the release instruction:
 * the ledger releases the hold to the operator when it consumes it, exactly once (one
 * release posting per experiment).
 */
export async function recordResultsApproved(
  trx: Kysely<ExperimentsDb>,
  row: ExperimentRecord,
  approval: { rating: number | null; onTime: boolean },
  now: Date,
): Promise<void> {
  await record(trx, events.experiments.resultsApproved, row, now, {
    experiment: experimentMessage(row),
    rating: approval.rating ?? 0,
    onTime: approval.onTime,
  });
}

/** The requester disputed (docs/api.md event "disputed"). */
export async function recordDisputed(
  trx: Kysely<ExperimentsDb>,
  row: ExperimentRecord,
  dispute: DisputeRow,
  now: Date,
): Promise<void> {
  await record(trx, events.experiments.experimentDisputed, row, now, {
    experiment: experimentMessage(row),
    dispute: disputeMessage(dispute),
  });
}

/**
 * Staff resolved a dispute: the amounts to each side in cents, and raised_from, which tells
 * the ledger whether the money is still in escrow (pending_approval) or was already released
 * to the operator (completed).
 */
export async function recordDisputeResolved(
  trx: Kysely<ExperimentsDb>,
  row: ExperimentRecord,
  dispute: DisputeRow,
  now: Date,
): Promise<void> {
  await record(trx, events.experiments.disputeResolved, row, now, {
    experiment: experimentMessage(row),
    dispute: disputeMessage(dispute),
  });
}
