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
 * Drafts record nothing: a draft is private to its requester and holds no money, so no
 * consumer has anything to do until it is submitted.
 */
import { events } from "@petri/contracts";
import { recordEvent } from "@petri/events";
import { currentTraceparent } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { ExperimentRecord } from "../db/experiment-records.js";
import type { DisputeRow, ExperimentsDb, IssueRow } from "../db/schema.js";
import type { CancellationSettlement } from "../domain/lifecycle/cancellation.js";
import { disputeMessage, experimentMessage, operatorIssueMessage } from "../rpc/experiment-message.js";

function meta(row: ExperimentRecord, now: Date) {
  const traceparent = currentTraceparent();
  return {
    aggregateId: row.id,
    aggregateVersion: row.version,
    occurredAt: now,
    ...(traceparent ? { traceparent } : {}),
  };
}

/** A request entered open or pending_review: ExperimentSubmitted (the hold), and ExperimentOpened when open. */
export async function recordSubmitted(
  trx: Kysely<ExperimentsDb>,
  row: ExperimentRecord,
  now: Date,
): Promise<void> {
  const experiment = experimentMessage(row);
  await recordEvent(
    trx,
    events.experiments.experimentSubmitted,
    { experiment, holdAmountCents: BigInt(row.hold_cents) },
    meta(row, now),
  );
  if (row.status === "open")
    await recordEvent(trx, events.experiments.experimentOpened, { experiment }, meta(row, now));
}

/** A reviewed or designed request became open. */
export async function recordOpened(
  trx: Kysely<ExperimentsDb>,
  row: ExperimentRecord,
  now: Date,
): Promise<void> {
  await recordEvent(
    trx,
    events.experiments.experimentOpened,
    { experiment: experimentMessage(row) },
    meta(row, now),
  );
}

/** Constraints, preferences, turnaround or protocol changed; the hold after re-estimating. */
export async function recordUpdated(
  trx: Kysely<ExperimentsDb>,
  row: ExperimentRecord,
  now: Date,
): Promise<void> {
  await recordEvent(
    trx,
    events.experiments.experimentUpdated,
    { experiment: experimentMessage(row), holdAmountCents: BigInt(row.hold_cents) },
    meta(row, now),
  );
}

/** Cancelled (by the requester, or rejected by review), with the refund and compensation to release. */
export async function recordCancelled(
  trx: Kysely<ExperimentsDb>,
  row: ExperimentRecord,
  settlement: CancellationSettlement,
  now: Date,
): Promise<void> {
  await recordEvent(
    trx,
    events.experiments.experimentCancelled,
    {
      experiment: experimentMessage(row),
      refundAmountCents: BigInt(settlement.refundCents),
      operatorCompensationCents: BigInt(settlement.operatorCompensationCents),
    },
    meta(row, now),
  );
}

/** Staff proposed a protocol for a design request. */
export async function recordProtocolProposed(
  trx: Kysely<ExperimentsDb>,
  row: ExperimentRecord,
  now: Date,
): Promise<void> {
  await recordEvent(
    trx,
    events.experiments.protocolProposed,
    { experiment: experimentMessage(row) },
    meta(row, now),
  );
}

/** An operator claimed an open experiment (SPEC.md event "claimed"). */
export async function recordClaimed(
  trx: Kysely<ExperimentsDb>,
  row: ExperimentRecord,
  now: Date,
): Promise<void> {
  await recordEvent(
    trx,
    events.experiments.experimentClaimed,
    { experiment: experimentMessage(row) },
    meta(row, now),
  );
}

/** The operator started work (SPEC.md event "started"). */
export async function recordStarted(
  trx: Kysely<ExperimentsDb>,
  row: ExperimentRecord,
  now: Date,
): Promise<void> {
  await recordEvent(
    trx,
    events.experiments.experimentStarted,
    { experiment: experimentMessage(row) },
    meta(row, now),
  );
}

/** The operator reported an issue (SPEC.md event "issue"). */
export async function recordIssueReported(
  trx: Kysely<ExperimentsDb>,
  row: ExperimentRecord,
  issue: IssueRow,
  now: Date,
): Promise<void> {
  await recordEvent(
    trx,
    events.experiments.issueReported,
    { experiment: experimentMessage(row), issue: operatorIssueMessage(issue) },
    meta(row, now),
  );
}

/** Results are in, pending approval (SPEC.md event "completed", results_available true). */
export async function recordResultsSubmitted(
  trx: Kysely<ExperimentsDb>,
  row: ExperimentRecord,
  fileCount: number,
  now: Date,
): Promise<void> {
  await recordEvent(
    trx,
    events.experiments.resultsSubmitted,
    { experiment: experimentMessage(row), fileCount },
    meta(row, now),
  );
}

/**
 * The requester approved (SPEC.md event "approved"). This event is the release instruction:
 * the ledger releases the hold to the operator when it consumes it, exactly once (one
 * release posting per experiment).
 */
export async function recordResultsApproved(
  trx: Kysely<ExperimentsDb>,
  row: ExperimentRecord,
  approval: { rating: number | null; onTime: boolean },
  now: Date,
): Promise<void> {
  await recordEvent(
    trx,
    events.experiments.resultsApproved,
    { experiment: experimentMessage(row), rating: approval.rating ?? 0, onTime: approval.onTime },
    meta(row, now),
  );
}

/** The requester disputed (SPEC.md event "disputed"). */
export async function recordDisputed(
  trx: Kysely<ExperimentsDb>,
  row: ExperimentRecord,
  dispute: DisputeRow,
  now: Date,
): Promise<void> {
  await recordEvent(
    trx,
    events.experiments.experimentDisputed,
    { experiment: experimentMessage(row), dispute: disputeMessage(dispute) },
    meta(row, now),
  );
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
  await recordEvent(
    trx,
    events.experiments.disputeResolved,
    { experiment: experimentMessage(row), dispute: disputeMessage(dispute) },
    meta(row, now),
  );
}
