/** SubmissionStatusChanged, recorded in the transaction of the change it announces. */
import { events } from "@petri/contracts";
import { recordEvent } from "@petri/events";
import { currentTraceparent } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { CloudLabsDb, SubmissionRow } from "../db/schema.js";
import { submissionMessage } from "../contract/submission-message.js";

export async function recordStatusChanged(
  trx: Kysely<CloudLabsDb>,
  row: SubmissionRow,
  previousStatus: string,
  now: Date,
): Promise<void> {
  const traceparent = currentTraceparent();
  await recordEvent(
    trx,
    events.cloudlabs.submissionStatusChanged,
    { submission: submissionMessage(row), previousStatus },
    {
      aggregateId: row.id,
      aggregateVersion: Number(row.version),
      occurredAt: now,
      ...(traceparent ? { traceparent } : {}),
    },
  );
}
