/**
 * The events the use cases record, in the transaction of the change they announce. Each
 * carries the experiment as it is after the change (event-carried state: status, estimate,
 * hold, review reasons, and the request JSON with its webhook preferences) plus the amounts
 * consumers act on (hold, refund, operator compensation). The envelope's aggregate version is
 * the experiment's version after the change; one change may record several events (submit
 * to open: ExperimentSubmitted and ExperimentOpened), which then share that version.
 *
 * Drafts record nothing: a draft is private to its requester and holds no money, so no
 * consumer has anything to do until it is submitted.
 */
import { events } from "@petri/contracts";
import { recordEvent } from "@petri/events";
import { currentTraceparent } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { ExperimentRow, ExperimentsDb } from "../db/schema.js";
import type { CancellationSettlement } from "../domain/lifecycle/cancellation.js";
import { experimentMessage } from "../rpc/experiment-message.js";

function meta(row: ExperimentRow, now: Date) {
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
  row: ExperimentRow,
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
export async function recordOpened(trx: Kysely<ExperimentsDb>, row: ExperimentRow, now: Date): Promise<void> {
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
  row: ExperimentRow,
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
  row: ExperimentRow,
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
  row: ExperimentRow,
  now: Date,
): Promise<void> {
  await recordEvent(
    trx,
    events.experiments.protocolProposed,
    { experiment: experimentMessage(row) },
    meta(row, now),
  );
}
