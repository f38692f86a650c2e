/** An operator as the RPCs show it: the record and its current load. */
import type { UnitOfWork } from "@petri/events";
import type { Kysely } from "kysely";
import { activeJobCount } from "../db/jobs.js";
import type { OperatorRecord } from "../db/operators.js";
import type { MarketplaceDb } from "../db/schema.js";
import type { Operator } from "../domain/operators/operator.js";

export interface OperatorView {
  operator: OperatorRecord;
  /** Claimed and in-progress jobs now (from the job projection). */
  activeJobs: number;
}

export async function viewOf(db: Kysely<MarketplaceDb>, operator: OperatorRecord): Promise<OperatorView> {
  return { operator, activeJobs: await activeJobCount(db, operator.id) };
}

/** What a use case that changes data needs. */
export interface ChangingDeps {
  db: Kysely<MarketplaceDb>;
  clock: { now(): Date };
  /** The transactions that change data and record events (waking the relay after they commit). */
  unitOfWork: UnitOfWork<MarketplaceDb>;
}

/** The operator as matching reads it. */
export function matchingOperatorOf(view: OperatorView): Operator {
  const { operator } = view;
  return {
    id: operator.id,
    status: operator.status,
    profile: operator.profile,
    verification: operator.verification,
    quality: operator.quality,
    active_jobs: view.activeJobs,
  };
}
