/**
 * The operator_eligibility projection: the marketplace's OperatorEligibilityChanged
 * snapshots, newest version per operator. The claim check and operator_availability read it;
 * only the consumer of those events writes it.
 */
import type { EligibilitySnapshot } from "@petri/contracts";
import { FixedQuery, jsonb } from "@petri/db";
import { type Kysely, sql } from "kysely";
import { ACTIVE_JOB_STATUSES } from "../domain/jobs/index.js";
import type { ExperimentsDb, OperatorEligibilityRow } from "./schema.js";

export interface EligibilityRecord {
  operatorId: string;
  accountId: string;
  labName: string;
  status: string;
  experimentTypes: string[];
  maxBsl: string;
  humanSamplesApproved: boolean;
  animalSamplesApproved: boolean;
  hazardousChemicalsApproved: boolean;
  equipment: string[];
  equipmentVerified: boolean;
  maxConcurrentJobs: number;
  currentCapacity: string;
  timezone: string;
  vacations: Array<{ start: string; end: string }>;
  version: number;
}

/**
 * Inserts the snapshot, or replaces the stored one when this version is newer; an older or
 * equal version changes nothing (events may arrive twice or out of order). True when stored.
 */
export async function upsertEligibilityIfNewer(
  db: Kysely<ExperimentsDb>,
  record: EligibilityRecord,
  now: Date,
): Promise<boolean> {
  const values = {
    operator_id: record.operatorId,
    account_id: record.accountId,
    lab_name: record.labName,
    status: record.status,
    experiment_types: jsonb(record.experimentTypes),
    max_bsl: record.maxBsl,
    human_samples_approved: record.humanSamplesApproved,
    animal_samples_approved: record.animalSamplesApproved,
    hazardous_chemicals_approved: record.hazardousChemicalsApproved,
    equipment: jsonb(record.equipment),
    equipment_verified: record.equipmentVerified,
    max_concurrent_jobs: record.maxConcurrentJobs,
    current_capacity: record.currentCapacity,
    timezone: record.timezone,
    vacations: jsonb(record.vacations),
    version: record.version,
    updated_at: now,
  };
  const { operator_id: _key, ...changes } = values;
  const result = await db
    .insertInto("operator_eligibility")
    .values(values)
    .onConflict((oc) =>
      oc
        .column("operator_id")
        .doUpdateSet(changes)
        .where("operator_eligibility.version", "<", record.version),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * The snapshot of the operator acting through `accountId`; with `lock`, FOR UPDATE (inside a
 * transaction), so that one operator's concurrent claims queue up and each counts the
 * other's job against the capacity.
 */
export async function findEligibilityByAccount(
  db: Kysely<ExperimentsDb>,
  accountId: string,
  options: { lock?: boolean } = {},
): Promise<OperatorEligibilityRow | undefined> {
  let query = db.selectFrom("operator_eligibility").selectAll().where("account_id", "=", accountId);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** Compiled and prepared once: every estimate (each POST /experiments) asks it. */
const candidatesWithActiveJobs = new FixedQuery<
  ExperimentsDb,
  { types: string },
  OperatorEligibilityRow & { active_jobs: number | string | null }
>(
  (db, value) =>
    db
      .selectFrom("operator_eligibility")
      .selectAll("operator_eligibility")
      .select((eb) =>
        eb
          .selectFrom("experiments")
          .select(eb.fn.countAll<number>().as("n"))
          .whereRef("experiments.operator_id", "=", "operator_eligibility.operator_id")
          .where("experiments.status", "in", [...ACTIVE_JOB_STATUSES])
          .as("active_jobs"),
      )
      .where("operator_eligibility.status", "=", "active")
      .where(sql<boolean>`operator_eligibility.experiment_types @> ${value("types")}::jsonb`),
  { prepared: true },
);

/**
 * Active operators whose verified types include `experimentType` (the candidates of a job),
 * each with the number of jobs it holds now (claimed or in progress), in one statement.
 */
export async function listCandidatesWithActiveJobs(
  db: Kysely<ExperimentsDb>,
  experimentType: string,
): Promise<(OperatorEligibilityRow & { active_jobs: number })[]> {
  const rows = await candidatesWithActiveJobs.execute(db, { types: jsonb([experimentType]) });
  return rows.map((row) => ({ ...row, active_jobs: Number(row.active_jobs ?? 0) }));
}

/** The fields of a row that the shared eligibility rule reads. */
export function eligibilitySnapshot(row: OperatorEligibilityRow): EligibilitySnapshot {
  return {
    status: row.status,
    experimentTypes: row.experiment_types,
    maxBsl: row.max_bsl,
    humanSamplesApproved: row.human_samples_approved,
    animalSamplesApproved: row.animal_samples_approved,
    hazardousChemicalsApproved: row.hazardous_chemicals_approved,
    equipment: row.equipment,
    equipmentVerified: row.equipment_verified,
    maxConcurrentJobs: row.max_concurrent_jobs,
    currentCapacity: row.current_capacity,
    timezone: row.timezone,
    vacations: row.vacations,
  };
}
