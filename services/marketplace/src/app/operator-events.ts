/**
 * OperatorEligibilityChanged, recorded in the transaction of every operator change: the
 * eligibility snapshot (what the claim check needs, declared AND verified only) and the status
 * before the change. The envelope's aggregate version is the operator's version after it, so
 * consumers (identity's operator role, experiments' claim projection) drop stale events.
 */
import { events } from "@petri/contracts";
import { recordEvent } from "@petri/events";
import { currentTraceparent } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { OperatorRecord } from "../db/operators.js";
import type { MarketplaceDb } from "../db/schema.js";
import { eligibilityOf } from "../domain/operators/eligibility.js";

export async function recordEligibilityChanged(
  trx: Kysely<MarketplaceDb>,
  record: OperatorRecord,
  previousStatus: string,
  now: Date,
): Promise<void> {
  const snapshot = eligibilityOf(record);
  const traceparent = currentTraceparent();
  await recordEvent(
    trx,
    events.marketplace.operatorEligibilityChanged,
    {
      eligibility: {
        operatorId: record.id,
        accountId: record.accountId,
        labName: record.labName,
        ...snapshot,
        experimentTypes: [...snapshot.experimentTypes],
        equipment: [...snapshot.equipment],
        vacations: snapshot.vacations.map((v) => ({ start: v.start, end: v.end })),
        version: BigInt(record.version),
      },
      previousStatus,
    },
    {
      aggregateId: record.id,
      aggregateVersion: record.version,
      occurredAt: now,
      ...(traceparent ? { traceparent } : {}),
    },
  );
}
