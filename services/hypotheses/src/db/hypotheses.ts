/**
 * The hypotheses table, read and written here only. Rows hold what the domain validated;
 * reads give it back typed.
 */
import { ConflictError, isId } from "@petri/service-kit";
import { type Kysely, sql } from "kysely";
import type { ExperimentTypeName } from "@petri/contracts/vocabulary";
import type { Hypothesis, HypothesisChanges, JsonObject } from "../domain/hypothesis.js";
import type { HypothesisFilter } from "../domain/listing.js";
import type { HypothesesDb, HypothesisRow } from "./schema.js";

function hypothesisOf(row: HypothesisRow): Hypothesis {
  return {
    id: row.id,
    ownerAccountId: row.owner_account_id,
    title: row.title,
    statement: row.statement,
    nullHypothesis: row.null_hypothesis,
    experimentType: row.experiment_type as ExperimentTypeName | null,
    status: row.status,
    intakeDraft: row.intake_draft as JsonObject | null,
    experimentsCount: row.experiments_count,
    engineAgent: row.engine_agent,
    engineQuery: row.engine_query,
    engineResponse: row.engine_response as JsonObject | null,
    sourceExperimentId: row.source_experiment_id,
    version: Number(row.version),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const jsonOrNull = (value: JsonObject | null) => (value === null ? null : JSON.stringify(value));

export async function insertHypothesis(
  db: Kysely<HypothesesDb>,
  hypothesis: Hypothesis,
): Promise<Hypothesis> {
  const row = await db
    .insertInto("hypotheses")
    .values({
      id: hypothesis.id,
      owner_account_id: hypothesis.ownerAccountId,
      title: hypothesis.title,
      statement: hypothesis.statement,
      null_hypothesis: hypothesis.nullHypothesis,
      experiment_type: hypothesis.experimentType,
      status: hypothesis.status,
      intake_draft: jsonOrNull(hypothesis.intakeDraft),
      experiments_count: hypothesis.experimentsCount,
      engine_agent: hypothesis.engineAgent,
      engine_query: hypothesis.engineQuery,
      engine_response: jsonOrNull(hypothesis.engineResponse),
      source_experiment_id: hypothesis.sourceExperimentId,
      version: hypothesis.version,
      created_at: hypothesis.createdAt,
      updated_at: hypothesis.updatedAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return hypothesisOf(row);
}

/** A string that is not a hypothesis id is simply not found. */
export async function findHypothesis(db: Kysely<HypothesesDb>, id: string): Promise<Hypothesis | undefined> {
  if (!isId("hyp", id)) return undefined;
  const row = await db.selectFrom("hypotheses").selectAll().where("id", "=", id).executeTakeFirst();
  return row && hypothesisOf(row);
}

/**
 * Applies a change guarded by the version the caller read (compare-and-set) and bumps the
 * version. Zero rows means someone else changed it first: a retryable 409.
 */
export async function updateHypothesis(
  db: Kysely<HypothesesDb>,
  current: Pick<Hypothesis, "id" | "version">,
  changes: HypothesisChanges & { updatedAt: Date },
): Promise<Hypothesis> {
  const row = await db
    .updateTable("hypotheses")
    .set({
      ...(changes.title === undefined ? {} : { title: changes.title }),
      ...(changes.statement === undefined ? {} : { statement: changes.statement }),
      ...(changes.status === undefined ? {} : { status: changes.status }),
      updated_at: changes.updatedAt,
      version: current.version + 1,
    })
    .where("id", "=", current.id)
    .where("version", "=", current.version)
    .returningAll()
    .executeTakeFirst();
  if (!row)
    throw new ConflictError("the hypothesis changed meanwhile; retry", "concurrent_update", {
      retryable: true,
    });
  return hypothesisOf(row);
}

export interface HypothesisPage {
  hypotheses: Hypothesis[];
  /** Every hypothesis matching the filter, regardless of the page. */
  total: number;
}

/** The owner's hypotheses matching the filter, newest first (ties by id), one offset page. */
export async function listHypotheses(
  db: Kysely<HypothesesDb>,
  ownerAccountId: string,
  filter: HypothesisFilter,
  page: { limit: number; offset: number },
): Promise<HypothesisPage> {
  let base = db
    .selectFrom("hypotheses")
    .where("owner_account_id", "=", ownerAccountId)
    .where("status", "in", filter.statuses);
  if (filter.experimentType !== null) base = base.where("experiment_type", "=", filter.experimentType);
  const pattern = filter.searchPattern;
  if (pattern !== null)
    // containsPattern escapes wildcards with a backslash; the escape character is said explicitly.
    base = base.where((eb) =>
      eb.or([
        sql<boolean>`title ilike ${pattern} escape '\\'`,
        sql<boolean>`statement ilike ${pattern} escape '\\'`,
      ]),
    );
  const { total } = await base.select(sql<number>`count(*)::int`.as("total")).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { hypotheses: rows.map(hypothesisOf), total };
}

/**
 * Records that `experimentId` was created from the hypothesis: the first time, experiments_count
 * grows by one, a DRAFT becomes USED (an ARCHIVED one stays archived) and the version is bumped;
 * again, nothing changes. Returns the hypothesis as it is afterwards, and whether this call
 * changed it.
 */
export async function linkExperiment(
  db: Kysely<HypothesesDb>,
  hypothesisId: string,
  experimentId: string,
  now: Date,
): Promise<{ hypothesis: Hypothesis; linked: boolean }> {
  const inserted = await db
    .insertInto("hypothesis_experiments")
    .values({ hypothesis_id: hypothesisId, experiment_id: experimentId, linked_at: now })
    .onConflict((oc) => oc.columns(["hypothesis_id", "experiment_id"]).doNothing())
    .returning("experiment_id")
    .executeTakeFirst();
  if (inserted) {
    const row = await db
      .updateTable("hypotheses")
      .set((eb) => ({
        experiments_count: eb("experiments_count", "+", 1),
        status: sql<HypothesisRow["status"]>`case when status = 'DRAFT' then 'USED' else status end`,
        version: eb("version", "+", 1),
        updated_at: now,
      }))
      .where("id", "=", hypothesisId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { hypothesis: hypothesisOf(row), linked: true };
  }
  const row = await db
    .selectFrom("hypotheses")
    .selectAll()
    .where("id", "=", hypothesisId)
    .executeTakeFirstOrThrow();
  return { hypothesis: hypothesisOf(row), linked: false };
}
