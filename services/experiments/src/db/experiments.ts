/** The experiments table: one row per experiment (the aggregate), read and written here only. */
import { FixedQuery, FixedQueryVariants } from "@petri/db";
import { ConflictError, isId } from "@petri/service-kit";
import type { Insertable, Kysely, Updateable } from "kysely";
import { ACTIVE_JOB_STATUSES, type JobRequirements, jobRequirementsOf } from "../domain/jobs/index.js";
import { requestText } from "./experiment-records.js";
import type { ExperimentRow, ExperimentsDb, ExperimentsTable } from "./schema.js";

const JSON_COLUMNS = [
  "request",
  "raw_request",
  "cost_breakdown",
  "review_reasons",
  "safety_flags",
  "protocol_proposal",
  "proposal_comments",
  "job",
] as const;

/** Columns a new experiment does not have yet: the claim, the work, approval, payment, job. */
type LaterColumns =
  | "operator_account_id"
  | "estimated_start_date"
  | "claim_notes"
  | "started_at"
  | "results_submitted_at"
  | "completed_at"
  | "approval_rating"
  | "approval_feedback"
  | "approved_at"
  | "payment_status"
  | "payment_held_cents"
  | "payment_released_cents"
  | "payment_refunded_cents"
  | "payment_still_held_cents"
  | "payment_version"
  | "payment_updated_at"
  | "job"
  | "source_hypothesis_id";

/** Values as read (parsed JSON); encode() turns the jsonb ones into JSON text for a write. */
export type ExperimentValues = Omit<
  ExperimentRow,
  "version" | "hold_cents" | "request_json" | LaterColumns
> & {
  hold_cents: number;
} & Partial<Pick<ExperimentRow, LaterColumns>>;
export type ExperimentChanges = Partial<
  Omit<ExperimentRow, "id" | "requester_account_id" | "created_at" | "version" | "job" | "request_json">
>;

/**
 * Column values as the database takes them. Whenever the request is written, its job
 * requirements are derived and written beside it (the job an operator saw stays the job it
 * is checked against, even if the template catalogue changes later).
 */
function encode(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...fields };
  if ("request" in out) out.job = jobRequirementsOf(out.request);
  for (const column of JSON_COLUMNS) {
    if (column in out) {
      const value = out[column];
      // JSON text for jsonb on both engines (see @petri/db jsonb()).
      out[column] = value === null || value === undefined ? null : JSON.stringify(value);
    }
  }
  return out;
}

/** The job requirements stored with the request, or derived for rows stored before there were any. */
export function jobOf(row: Pick<ExperimentRow, "job" | "request">): JobRequirements {
  return row.job ?? jobRequirementsOf(row.request);
}

/**
 * The insert of a new experiment, compiled and prepared once per set of columns given (a create
 * writes some fifty): building it with Kysely on every POST cost more CPU than sending it.
 */
const insertRow = new FixedQueryVariants<
  ExperimentsDb,
  readonly string[],
  Record<string, unknown>,
  ExperimentRow
>(
  (columns) => columns.join(","),
  (db, value, columns) =>
    db
      .insertInto("experiments")
      .values(
        Object.fromEntries(columns.map((column) => [column, value(column)])) as Insertable<ExperimentsTable>,
      )
      .returningAll()
      .returning(requestText),
  { prepared: true },
);

export async function insertExperiment(
  db: Kysely<ExperimentsDb>,
  values: ExperimentValues,
): Promise<ExperimentRow> {
  const encoded = encode(values);
  // An undefined value is a column not written (its default), as Kysely's values() takes it.
  const columns = Object.keys(encoded).filter((column) => encoded[column] !== undefined);
  const [row] = await insertRow.execute(db, columns, encoded);
  if (!row) throw new Error(`experiment ${values.id}: the insert returned no row`);
  return row;
}

/**
 * One experiment by id; with `lock`, FOR UPDATE (inside a transaction), so concurrent
 * changes to one experiment queue up instead of racing. A string that is not an experiment
 * id is simply not found.
 */
export async function findExperiment(
  db: Kysely<ExperimentsDb>,
  id: string,
  options: { lock?: boolean } = {},
): Promise<ExperimentRow | undefined> {
  if (!isId("exp", id)) return undefined;
  let query = db.selectFrom("experiments").selectAll().select(requestText).where("id", "=", id);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/**
 * Applies a change guarded by the status and version the caller read (compare-and-set:
 * WHERE status = expected AND version = expected), bumps the version and updated_at.
 * Zero rows means someone else changed the experiment first: a retryable 409.
 */
export async function updateExperiment(
  db: Kysely<ExperimentsDb>,
  current: Pick<ExperimentRow, "id" | "status" | "version">,
  changes: ExperimentChanges & { updated_at: Date },
): Promise<ExperimentRow> {
  const updated = await db
    .updateTable("experiments")
    .set((eb) => ({
      ...(encode(changes) as Updateable<ExperimentsTable>),
      version: eb("version", "+", 1),
    }))
    .where("id", "=", current.id)
    .where("status", "=", current.status)
    .where("version", "=", current.version)
    .returningAll()
    .returning(requestText)
    .executeTakeFirst();
  if (!updated)
    throw new ConflictError("the experiment changed meanwhile; retry", "concurrent_update", {
      retryable: true,
    });
  return updated;
}

/**
 * The claim itself: open -> claimed with the operator's assignment, guarded by the status
 * (WHERE status = 'open'). Under PostgreSQL's READ COMMITTED a concurrent claim waits for the
 * first one's row lock and then re-checks the WHERE clause against the committed row, so
 * exactly one claim gets the row back; the others get undefined.
 */
export async function claimOpenExperiment(
  db: Kysely<ExperimentsDb>,
  id: string,
  claim: Pick<
    ExperimentRow,
    | "operator_id"
    | "operator_account_id"
    | "operator_lab_name"
    | "claimed_at"
    | "deadline"
    | "estimated_start_date"
    | "claim_notes"
  > & { updated_at: Date },
): Promise<ExperimentRow | undefined> {
  return db
    .updateTable("experiments")
    .set((eb) => ({ ...claim, status: "claimed", version: eb("version", "+", 1) }))
    .where("id", "=", id)
    .where("status", "=", "open")
    .returningAll()
    .returning(requestText)
    .executeTakeFirst();
}

/** Experiments an operator holds now (claimed or in progress): what its capacity counts. */
export async function countActiveJobs(db: Kysely<ExperimentsDb>, operatorId: string): Promise<number> {
  const { n } = await db
    .selectFrom("experiments")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("operator_id", "=", operatorId)
    .where("status", "in", [...ACTIVE_JOB_STATUSES])
    .executeTakeFirstOrThrow();
  return Number(n);
}

export interface PaymentProjection {
  status: ExperimentRow["payment_status"];
  heldCents: number;
  releasedCents: number;
  refundedCents: number;
  stillHeldCents: number;
  /** The ledger's version (its number of postings for the experiment). */
  version: number;
  updatedAt: Date;
}

/**
 * Applies the ledger's summary if it is newer than the one stored (older or equal versions
 * are stale or replays: no change). Not a change of the experiment itself, so neither its
 * version nor updated_at moves. True when applied.
 */
const updatePaymentIfNewer = new FixedQuery<
  ExperimentsDb,
  { experimentId: string } & Omit<PaymentProjection, "status"> & { status: string },
  { id: string }
>(
  (db, value) =>
    db
      .updateTable("experiments")
      .set({
        payment_status: value("status") as PaymentProjection["status"],
        payment_held_cents: value("heldCents"),
        payment_released_cents: value("releasedCents"),
        payment_refunded_cents: value("refundedCents"),
        payment_still_held_cents: value("stillHeldCents"),
        payment_version: value("version"),
        payment_updated_at: value("updatedAt"),
      })
      .where("id", "=", value("experimentId"))
      .where("payment_version", "<", value("version"))
      .returning("id"),
  { prepared: true },
);

export async function applyPaymentIfNewer(
  db: Kysely<ExperimentsDb>,
  experimentId: string,
  payment: PaymentProjection,
): Promise<boolean> {
  const updated = await updatePaymentIfNewer.execute(db, { experimentId, ...payment });
  return updated.length > 0;
}
