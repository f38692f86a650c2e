/** An operator as the RPCs show it: the record and its current load. */
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
  /** Called after a commit that recorded events, so the relay publishes them at once. */
  afterCommit(): void;
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
