/**
 * Escrow ledger persistence. Postings are append-only; (experiment_id, kind, key) is unique, so
 * recording is idempotent: a replayed event inserts nothing and compares what is stored with
 * what was asked (identical: no-op; different: LedgerError "conflicting_replay").
 *
 * Every non-hold posting first locks the experiment's hold row (`for update`), so postings of
 * one experiment are serialised across replicas and the balance check after the insert sees
 * every committed posting: escrow can never be overdrawn by a release racing a refund.
 */
import { randomUUID } from "node:crypto";
import { type Kysely, type QueryCreator, type Transaction, sql } from "kysely";
import { REQUESTER_FUNDS } from "../domain/ledger/accounts.js";
import { LedgerError } from "../domain/ledger/errors.js";
import {
  type ExperimentLedger,
  type LedgerSummary,
  type PaymentState,
  paymentStateOf,
  summarize,
} from "../domain/ledger/experiment-ledger.js";
import type { ExecutedProviderCall } from "../domain/ledger/payment-provider.js";
import {
  type Posting,
  type PostingKind,
  assertValidPosting,
  canOverdraw,
  postingKey,
  samePosting,
} from "../domain/ledger/postings.js";
import type { LedgerTables } from "./schema.js";

export interface RecordOptions {
  now: Date;
  /** The posting's id; default `lp_<uuid>`. */
  id?: string;
}

export interface RecordResult {
  postingId: string;
  /** False when an identical posting was already stored (a replay: nothing moved). */
  recorded: boolean;
}

/**
 * Records one posting inside the caller's transaction (so it commits with the state change and
 * outbox event that caused it). Throws LedgerError: invalid or unbalanced posting, no hold yet,
 * conflicting replay, or a balance of the experiment driven negative (the caller's transaction
 * must then roll back, which throwing does).
 */
export async function recordPosting<DB extends LedgerTables>(
  transaction: Transaction<DB>,
  posting: Posting,
  options: RecordOptions,
): Promise<RecordResult> {
  const trx = transaction as unknown as Transaction<LedgerTables>;
  assertValidPosting(posting);
  if (posting.kind !== "hold") {
    const hold = await trx
      .selectFrom("ledger_postings")
      .select("id")
      .where("experiment_id", "=", posting.experimentId)
      .where("kind", "=", "hold")
      .forUpdate()
      .executeTakeFirst();
    if (!hold) throw new LedgerError("no_hold", `${posting.kind} on ${posting.experimentId} before any hold`);
  }
  const inserted = await insertPostingWithEntries(trx, posting, {
    id: options.id ?? newPostingId(),
    now: options.now,
  });

  if (!inserted) return replayOf(trx, posting);

  // Balances are never negative after a posting (this check), so one that only adds to
  // them cannot overdraw any: nothing to check (a hold).
  if (!canOverdraw(posting)) return { postingId: inserted.id, recorded: true };
  const negative = await trx
    .selectFrom("ledger_entries as e")
    .innerJoin("ledger_postings as p", "p.id", "e.posting_id")
    .select(["e.account", sql<number>`sum(e.amount_cents)::bigint`.as("balance")])
    .where("p.experiment_id", "=", posting.experimentId)
    .where("e.account", "<>", REQUESTER_FUNDS)
    .groupBy("e.account")
    .having(sql<boolean>`sum(e.amount_cents) < 0`)
    .executeTakeFirst();
  if (negative) {
    throw new LedgerError(
      "escrow_overdrawn",
      `${posting.kind} on ${posting.experimentId} would leave ${negative.account} at ${negative.balance} cents`,
    );
  }
  return { postingId: inserted.id, recorded: true };
}

/** A posting whose key was stored already: nothing recorded if identical, else conflicting_replay. */
async function replayOf(trx: Transaction<LedgerTables>, posting: Posting): Promise<RecordResult> {
  const stored = await loadPosting(trx, posting.experimentId, posting.kind, postingKey(posting));
  if (!stored)
    throw new Error(`ledger: ${posting.kind} of ${posting.experimentId} conflicted but is not visible`);
  if (!samePosting(stored.posting, posting)) {
    throw new LedgerError(
      "conflicting_replay",
      `${posting.experimentId} already has a different ${posting.kind} posting (${stored.id})`,
    );
  }
  return { postingId: stored.id, recorded: false };
}

/**
 * A submission's hold posting (recordPosting's rules: a replay records nothing) and its hold
 * target (saveHoldTarget's rule: unless a newer version set it), in one statement. A hold
 * changes no balance downwards and needs no earlier posting, so nothing is read before it.
 */
export async function recordHold<DB extends LedgerTables>(
  transaction: Transaction<DB>,
  hold: Posting,
  target: HoldTarget,
  options: RecordOptions,
): Promise<RecordResult> {
  const trx = transaction as unknown as Transaction<LedgerTables>;
  assertValidPosting(hold);
  if (hold.kind !== "hold") throw new Error(`recordHold: ${hold.kind} is not a hold`);
  const inserted = await trx
    .with("posting", (db) => insertPosting(db, hold, { id: options.id ?? newPostingId(), now: options.now }))
    .with("entries", (db) => insertEntriesOf(db, hold))
    // The other CTEs' names are not tables of the target's insert.
    .with("target", (db) =>
      upsertHoldTarget(db as unknown as QueryCreator<LedgerTables>, hold.experimentId, target, options.now),
    )
    .selectFrom("posting")
    .select("posting.id")
    .executeTakeFirst();
  if (!inserted) return replayOf(trx, hold);
  return { postingId: inserted.id, recorded: true };
}

/**
 * The posting and its entries in one statement: the entries are inserted from the posting the
 * statement inserted, so a posting already stored (the unique key conflicts) inserts neither
 * and returns nothing.
 */
async function insertPostingWithEntries(
  trx: Transaction<LedgerTables>,
  posting: Posting,
  row: { id: string; now: Date },
): Promise<{ id: string } | undefined> {
  return trx
    .with("posting", (db) => insertPosting(db, posting, row))
    .with("entries", (db) => insertEntriesOf(db, posting))
    .selectFrom("posting")
    .select("posting.id")
    .executeTakeFirst();
}

function newPostingId(): string {
  return `lp_${randomUUID().replaceAll("-", "")}`;
}

/** The posting's row unless its (experiment, kind, key) is stored already; returns its id. */
function insertPosting(db: QueryCreator<LedgerTables>, posting: Posting, row: { id: string; now: Date }) {
  return db
    .insertInto("ledger_postings")
    .values({
      id: row.id,
      experiment_id: posting.experimentId,
      kind: posting.kind,
      key: postingKey(posting),
      created_at: row.now,
    })
    .onConflict((oc) => oc.columns(["experiment_id", "kind", "key"]).doNothing())
    .returning("id");
}

/** The entries of `posting`, for the row of the statement's "posting" CTE (none when it inserted none). */
function insertEntriesOf(db: QueryCreator<LedgerTables & { posting: { id: string } }>, posting: Posting) {
  return db
    .insertInto("ledger_entries")
    .columns(["posting_id", "account", "amount_cents"])
    .expression((eb) =>
      eb.selectFrom("posting").select([
        "posting.id",
        // Set-returning functions in one select list run in step: one row per entry.
        sql<string>`unnest(${posting.entries.map((entry) => entry.account)}::text[])`.as("account"),
        sql<number>`unnest(${posting.entries.map((entry) => entry.amountCents)}::bigint[])`.as(
          "amount_cents",
        ),
      ]),
    );
}

/** Records several postings (one business event) in one transaction of its own. */
export async function recordPostings<DB extends LedgerTables>(
  database: Kysely<DB>,
  postings: readonly Posting[],
  options: { now: Date },
): Promise<RecordResult[]> {
  const db = database as unknown as Kysely<LedgerTables>;
  return db.transaction().execute(async (trx) => {
    const results: RecordResult[] = [];
    for (const posting of postings) results.push(await recordPosting(trx, posting, options));
    return results;
  });
}

async function loadPosting(
  db: Kysely<LedgerTables>,
  experimentId: string,
  kind: PostingKind,
  key: string,
): Promise<StoredPosting | undefined> {
  const ledger = await loadLedgerRows(db, experimentId, { kind, key });
  const [first] = ledger;
  return first;
}

/** A recorded posting with its id and when it was recorded. */
export interface StoredPosting {
  id: string;
  posting: Posting;
  postedAt: Date;
}

async function loadLedgerRows(
  db: Kysely<LedgerTables>,
  experimentId: string,
  only?: { kind: PostingKind; key: string },
): Promise<StoredPosting[]> {
  let query = db
    .selectFrom("ledger_postings as p")
    .innerJoin("ledger_entries as e", "e.posting_id", "p.id")
    .select(["p.id", "p.kind", "p.key", "p.created_at", "e.account", "e.amount_cents"])
    .where("p.experiment_id", "=", experimentId);
  if (only) query = query.where("p.kind", "=", only.kind).where("p.key", "=", only.key);
  const rows = await query.orderBy("p.seq").orderBy("e.account").execute();
  const byId = new Map<string, StoredPosting & { posting: { entries: Posting["entries"][number][] } }>();
  for (const row of rows) {
    let found = byId.get(row.id);
    if (!found) {
      const base = { experimentId, kind: row.kind, entries: [] };
      found = {
        id: row.id,
        posting: row.key === "" ? base : { ...base, key: row.key },
        postedAt: row.created_at,
      };
      byId.set(row.id, found);
    }
    found.posting.entries.push({ account: row.account, amountCents: row.amount_cents });
  }
  return [...byId.values()];
}

/** The experiment's postings with their ids and times, oldest first. */
export async function loadPostings<DB extends LedgerTables>(
  database: Kysely<DB>,
  experimentId: string,
): Promise<StoredPosting[]> {
  return loadLedgerRows(database as unknown as Kysely<LedgerTables>, experimentId);
}

/**
 * The experiment's ledger, read after locking its hold row (`for update`) inside the caller's
 * transaction: postings of one experiment are then computed and recorded one event at a time,
 * across replicas. Without a hold there is nothing to lock (only a hold can be recorded then).
 */
export async function lockLedger<DB extends LedgerTables>(
  transaction: Transaction<DB>,
  experimentId: string,
): Promise<ExperimentLedger> {
  const trx = transaction as unknown as Transaction<LedgerTables>;
  const hold = await trx
    .selectFrom("ledger_postings")
    .select("id")
    .where("experiment_id", "=", experimentId)
    .where("kind", "=", "hold")
    .forUpdate()
    .executeTakeFirst();
  // Every other posting needs the hold (recordPosting): no hold, no postings to read.
  if (!hold) return { experimentId, postings: [] };
  return loadLedger(trx, experimentId);
}

/** Keeps the provider's references for the calls that carried out a posting (a replay keeps the first). */
export async function recordProviderCalls<DB extends LedgerTables>(
  transaction: Transaction<DB>,
  postingId: string,
  provider: string,
  calls: readonly ExecutedProviderCall[],
  now: Date,
): Promise<void> {
  if (calls.length === 0) return;
  const trx = transaction as unknown as Transaction<LedgerTables>;
  await trx
    .insertInto("ledger_provider_calls")
    .values(
      calls.map(({ call, receipt }) => ({
        posting_id: postingId,
        idempotency_key: call.request.idempotencyKey,
        method: call.method,
        provider,
        provider_reference: receipt.providerId,
        amount_cents: call.request.amountCents,
        created_at: now,
      })),
    )
    .onConflict((oc) => oc.columns(["posting_id", "idempotency_key"]).doNothing())
    .execute();
}

export interface ProviderCallRow {
  postingId: string;
  method: string;
  providerReference: string;
  amountCents: number;
}

/** The provider calls recorded for an experiment's postings. */
export async function providerCallsOf<DB extends LedgerTables>(
  database: Kysely<DB>,
  experimentId: string,
): Promise<ProviderCallRow[]> {
  const db = database as unknown as Kysely<LedgerTables>;
  const rows = await db
    .selectFrom("ledger_provider_calls as c")
    .innerJoin("ledger_postings as p", "p.id", "c.posting_id")
    .select(["c.posting_id", "c.method", "c.provider_reference", "c.amount_cents"])
    .where("p.experiment_id", "=", experimentId)
    .orderBy("p.seq")
    .orderBy("c.idempotency_key")
    .execute();
  return rows.map((row) => ({
    postingId: row.posting_id,
    method: row.method,
    providerReference: row.provider_reference,
    amountCents: row.amount_cents,
  }));
}

export interface HoldTarget {
  targetCents: number;
  /** The experiment version whose estimate set the target. */
  version: number;
}

/** The experiment's hold target, locked for the caller's transaction; undefined before the hold. */
export async function lockHoldTarget<DB extends LedgerTables>(
  transaction: Transaction<DB>,
  experimentId: string,
): Promise<HoldTarget | undefined> {
  const trx = transaction as unknown as Transaction<LedgerTables>;
  const row = await trx
    .selectFrom("escrow_hold_targets")
    .select(["target_cents", "target_version"])
    .where("experiment_id", "=", experimentId)
    .forUpdate()
    .executeTakeFirst();
  return row && { targetCents: row.target_cents, version: row.target_version };
}

/** Sets the hold target unless a newer version set it already. */
export async function saveHoldTarget<DB extends LedgerTables>(
  transaction: Transaction<DB>,
  experimentId: string,
  target: HoldTarget,
  now: Date,
): Promise<void> {
  const trx = transaction as unknown as Transaction<LedgerTables>;
  await upsertHoldTarget(trx, experimentId, target, now).execute();
}

function upsertHoldTarget(
  db: QueryCreator<LedgerTables>,
  experimentId: string,
  target: HoldTarget,
  now: Date,
) {
  return db
    .insertInto("escrow_hold_targets")
    .values({
      experiment_id: experimentId,
      target_cents: target.targetCents,
      target_version: target.version,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc
        .column("experiment_id")
        .doUpdateSet((eb) => ({
          target_cents: eb.ref("excluded.target_cents"),
          target_version: eb.ref("excluded.target_version"),
          updated_at: eb.ref("excluded.updated_at"),
        }))
        .where("escrow_hold_targets.target_version", "<", (eb) => eb.ref("excluded.target_version")),
    );
}

/** The experiment's postings as a domain ledger (input to the postingsFor* functions). */
export async function loadLedger<DB extends LedgerTables>(
  database: Kysely<DB>,
  experimentId: string,
): Promise<ExperimentLedger> {
  const db = database as unknown as Kysely<LedgerTables>;
  const rows = await loadLedgerRows(db, experimentId);
  return { experimentId, postings: rows.map((row) => row.posting) };
}

export interface ExperimentBalances {
  experimentId: string;
  /** Balance per account touched by this experiment's postings (cents, signed). */
  accounts: Record<string, number>;
  summary: LedgerSummary;
  paymentState: PaymentState;
}

/** Balances and per-kind totals of one experiment. */
export async function balances<DB extends LedgerTables>(
  database: Kysely<DB>,
  experimentId: string,
): Promise<ExperimentBalances> {
  const db = database as unknown as Kysely<LedgerTables>;
  const ledger = await loadLedger(db, experimentId);
  const rows = await db
    .selectFrom("ledger_entries as e")
    .innerJoin("ledger_postings as p", "p.id", "e.posting_id")
    .select(["e.account", sql<number>`sum(e.amount_cents)::bigint`.as("balance")])
    .where("p.experiment_id", "=", experimentId)
    .groupBy("e.account")
    .orderBy("e.account")
    .execute();
  return {
    experimentId,
    accounts: Object.fromEntries(rows.map((row) => [row.account, row.balance])),
    summary: summarize(experimentId, ledger.postings),
    paymentState: paymentStateOf(ledger),
  };
}

export interface ConservationReport {
  ok: boolean;
  experiments: number;
  /** Net of holds and hold adjustments. */
  heldCents: number;
  releasedCents: number;
  refundedCents: number;
  compensatedCents: number;
  /** Escrow split by dispute resolutions. */
  disputeToRequesterCents: number;
  disputeToOperatorCents: number;
  /** Moved back from operators to requesters by disputes after a release. */
  clawedBackCents: number;
  returnedToRequesterCents: number;
  paidToOperatorCents: number;
  stillHeldCents: number;
  violations: string[];
}

/**
 * Checks the whole ledger in four queries: every posting balances and has two or more
 * entries; no account of an experiment is negative (requester_funds excepted); and per
 * experiment, on both views of the money,
 *   held = released + refunded + compensated + dispute shares + still held   (escrow flows)
 *   held = returned to requester + paid to operator + still held             (balances)
 * with no other experiment's escrow touched. For the CheckLedger RPC and tests.
 */
export async function conservation<DB extends LedgerTables>(
  database: Kysely<DB>,
): Promise<ConservationReport> {
  const db = database as unknown as Kysely<LedgerTables>;
  const violations: string[] = [];
  const unbalanced = await db
    .selectFrom("ledger_postings as p")
    .leftJoin("ledger_entries as e", "e.posting_id", "p.id")
    .select([
      "p.id",
      "p.experiment_id",
      "p.kind",
      sql<number>`coalesce(sum(e.amount_cents), 0)::bigint`.as("imbalance"),
      sql<number>`count(e.account)::int`.as("entries"),
    ])
    .groupBy(["p.id", "p.experiment_id", "p.kind"])
    .having(sql<boolean>`coalesce(sum(e.amount_cents), 0) <> 0 or count(e.account) < 2`)
    .execute();
  for (const row of unbalanced) {
    violations.push(
      `${row.experiment_id}: ${row.kind} posting ${row.id} has ${row.entries} entries, imbalance ${row.imbalance}`,
    );
  }

  const negative = await db
    .selectFrom("ledger_entries as e")
    .innerJoin("ledger_postings as p", "p.id", "e.posting_id")
    .select(["p.experiment_id", "e.account", sql<number>`sum(e.amount_cents)::bigint`.as("balance")])
    .where("e.account", "<>", REQUESTER_FUNDS)
    .groupBy(["p.experiment_id", "e.account"])
    .having(sql<boolean>`sum(e.amount_cents) < 0`)
    .execute();
  for (const row of negative)
    violations.push(`${row.experiment_id}: ${row.account} is negative (${row.balance})`);

  const sums = await db
    .selectFrom("ledger_entries as e")
    .innerJoin("ledger_postings as p", "p.id", "e.posting_id")
    .select([
      "p.experiment_id",
      sql<number>`coalesce(-sum(e.amount_cents) filter (where e.account = ${REQUESTER_FUNDS}), 0)::bigint`.as(
        "held",
      ),
      sql<number>`coalesce(sum(e.amount_cents) filter (where e.account = 'requester_refund'), 0)::bigint`.as(
        "returned",
      ),
      sql<number>`coalesce(sum(e.amount_cents) filter (where e.account like 'operator_payable:%'), 0)::bigint`.as(
        "paid",
      ),
      sql<number>`coalesce(sum(e.amount_cents) filter (where e.account = 'escrow:' || p.experiment_id), 0)::bigint`.as(
        "still_held",
      ),
      sql<number>`count(*) filter (where e.account like 'escrow:%' and e.account <> 'escrow:' || p.experiment_id)::int`.as(
        "foreign_escrow",
      ),
    ])
    .groupBy("p.experiment_id")
    .orderBy("p.experiment_id")
    .execute();
  const flows = await escrowFlows(db);
  const report: ConservationReport = {
    ok: false,
    experiments: sums.length,
    heldCents: 0,
    releasedCents: 0,
    refundedCents: 0,
    compensatedCents: 0,
    disputeToRequesterCents: 0,
    disputeToOperatorCents: 0,
    clawedBackCents: 0,
    returnedToRequesterCents: 0,
    paidToOperatorCents: 0,
    stillHeldCents: 0,
    violations,
  };
  for (const row of sums) {
    report.heldCents += row.held;
    report.returnedToRequesterCents += row.returned;
    report.paidToOperatorCents += row.paid;
    report.stillHeldCents += row.still_held;
    if (row.held !== row.returned + row.paid + row.still_held) {
      violations.push(
        `${row.experiment_id}: held ${row.held} != returned ${row.returned} + paid ${row.paid} + still held ${row.still_held}`,
      );
    }
    if (row.foreign_escrow > 0) violations.push(`${row.experiment_id}: touches another experiment's escrow`);
    const flow = flows.get(row.experiment_id) ?? NO_FLOWS;
    report.releasedCents += flow.released;
    report.refundedCents += flow.refunded;
    report.compensatedCents += flow.compensated;
    report.disputeToRequesterCents += flow.disputeToRequester;
    report.disputeToOperatorCents += flow.disputeToOperator;
    report.clawedBackCents += flow.clawedBack;
    const out =
      flow.released + flow.refunded + flow.compensated + flow.disputeToRequester + flow.disputeToOperator;
    if (row.held !== out + row.still_held) {
      violations.push(
        `${row.experiment_id}: held ${row.held} != escrow outflows ${out} + still held ${row.still_held}`,
      );
    }
  }
  report.ok = violations.length === 0;
  return report;
}

interface EscrowFlows {
  released: number;
  refunded: number;
  compensated: number;
  disputeToRequester: number;
  disputeToOperator: number;
  clawedBack: number;
}

const NO_FLOWS: EscrowFlows = {
  released: 0,
  refunded: 0,
  compensated: 0,
  disputeToRequester: 0,
  disputeToOperator: 0,
  clawedBack: 0,
};

/**
 * Per experiment, the money each kind of posting moved: the sum of a posting's debits, and for
 * dispute resolutions the requester's and operator's shares out of escrow, or the claw-back
 * when the resolution moved money from the operator instead (a dispute after the release).
 */
async function escrowFlows(db: Kysely<LedgerTables>): Promise<Map<string, EscrowFlows>> {
  const postings = db
    .selectFrom("ledger_postings as p")
    .innerJoin("ledger_entries as e", "e.posting_id", "p.id")
    .select([
      "p.experiment_id",
      "p.kind",
      sql<number>`sum(greatest(e.amount_cents, 0))`.as("moved"),
      sql<number>`coalesce(sum(e.amount_cents) filter (where e.account = 'requester_refund'), 0)`.as(
        "to_requester",
      ),
      sql<number>`coalesce(sum(e.amount_cents) filter (where e.account like 'operator_payable:%' and e.amount_cents > 0), 0)`.as(
        "to_operator",
      ),
      sql<boolean>`bool_or(e.account = 'escrow:' || p.experiment_id and e.amount_cents < 0)`.as(
        "from_escrow",
      ),
    ])
    .groupBy(["p.id", "p.experiment_id", "p.kind"])
    .as("t");
  const rows = await db
    .selectFrom(postings)
    .select([
      "t.experiment_id",
      sql<number>`coalesce(sum(t.moved) filter (where t.kind = 'release'), 0)::bigint`.as("released"),
      sql<number>`coalesce(sum(t.moved) filter (where t.kind = 'refund'), 0)::bigint`.as("refunded"),
      sql<number>`coalesce(sum(t.moved) filter (where t.kind = 'compensation'), 0)::bigint`.as("compensated"),
      sql<number>`coalesce(sum(t.to_requester) filter (where t.kind = 'dispute_resolution' and t.from_escrow), 0)::bigint`.as(
        "dispute_to_requester",
      ),
      sql<number>`coalesce(sum(t.to_operator) filter (where t.kind = 'dispute_resolution' and t.from_escrow), 0)::bigint`.as(
        "dispute_to_operator",
      ),
      sql<number>`coalesce(sum(t.to_requester) filter (where t.kind = 'dispute_resolution' and not t.from_escrow), 0)::bigint`.as(
        "clawed_back",
      ),
    ])
    .groupBy("t.experiment_id")
    .execute();
  return new Map(
    rows.map((row) => [
      row.experiment_id,
      {
        released: row.released,
        refunded: row.refunded,
        compensated: row.compensated,
        disputeToRequester: row.dispute_to_requester,
        disputeToOperator: row.dispute_to_operator,
        clawedBack: row.clawed_back,
      },
    ]),
  );
}
