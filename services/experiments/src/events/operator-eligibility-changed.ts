/**
 * petri.marketplace.operator_eligibility_changed -> the operator_eligibility projection.
 * Idempotent and order-tolerant: a snapshot replaces the stored one only when its version is
 * newer (the runner's inbox already drops exact redeliveries).
 */
import type { OperatorEligibilityChanged } from "@petri/contracts/marketplace";
import type { Kysely } from "kysely";
import { upsertEligibilityIfNewer } from "../db/operator-eligibility.js";
import type { ExperimentsDb } from "../db/schema.js";

export async function applyOperatorEligibilityChanged(
  trx: Kysely<ExperimentsDb>,
  event: OperatorEligibilityChanged,
  now: Date,
): Promise<void> {
  const snapshot = event.eligibility;
  if (!snapshot || snapshot.operatorId === "" || snapshot.accountId === "")
    throw new Error("OperatorEligibilityChanged without an operator and account id");
  await upsertEligibilityIfNewer(
    trx,
    {
      operatorId: snapshot.operatorId,
      accountId: snapshot.accountId,
      labName: snapshot.labName,
      status: snapshot.status,
      experimentTypes: [...snapshot.experimentTypes],
      maxBsl: snapshot.maxBsl,
      humanSamplesApproved: snapshot.humanSamplesApproved,
      animalSamplesApproved: snapshot.animalSamplesApproved,
      hazardousChemicalsApproved: snapshot.hazardousChemicalsApproved,
      equipment: [...snapshot.equipment],
      equipmentVerified: snapshot.equipmentVerified,
      maxConcurrentJobs: snapshot.maxConcurrentJobs,
      currentCapacity: snapshot.currentCapacity,
      timezone: snapshot.timezone,
      vacations: snapshot.vacations.map((v) => ({ start: v.start, end: v.end })),
      version: Number(snapshot.version),
    },
    now,
  );
}
