/**
 * Escrow ledger persistence. Postings are append-only; (experiment_id, kind) is unique, so
 * recording is idempotent: a replayed event inserts nothing and compares what is stored with
 * what was asked (identical: no-op; different: LedgerError "conflicting_replay").
 *
 * Every non-hold posting first locks the experiment's hold row (`for update`), so postings of
 * one experiment are serialised across replicas and the balance check after the insert sees
 * every committed posting: escrow can never be overdrawn by a release racing a refund.
 */
import { randomUUID } from "node:crypto";
import { type Kysely, type Transaction, sql } from "kysely";
import { REQUESTER_FUNDS } from "../domain/ledger/accounts.js";
import { LedgerError } from "../domain/ledger/errors.js";
import {
  type ExperimentLedger,
  type LedgerSummary,
  type PaymentState,
  paymentStateOf,
  summarize,
} from "../domain/ledger/experiment-ledger.js";
import {
  type Posting,
  type PostingKind,
  assertValidPosting,
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
  const inserted = await trx
    .insertInto("ledger_postings")
    .values({
      id: options.id ?? `lp_${randomUUID().replaceAll("-", "")}`,
      experiment_id: posting.experimentId,
      kind: posting.kind,
      created_at: options.now,
    })
    .onConflict((oc) => oc.columns(["experiment_id", "kind"]).doNothing())
    .returning("id")
    .executeTakeFirst();

  if (!inserted) {
    const stored = await loadPosting(trx, posting.experimentId, posting.kind);
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

  await trx
    .insertInto("ledger_entries")
    .values(
      posting.entries.map((entry) => ({
        posting_id: inserted.id,
        account: entry.account,
        amount_cents: entry.amountCents,
      })),
    )
    .execute();

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
): Promise<{ id: string; posting: Posting } | undefined> {
  const ledger = await loadLedgerRows(db, experimentId, kind);
  const [first] = ledger;
  return first;
}

async function loadLedgerRows(
  db: Kysely<LedgerTables>,
  experimentId: string,
  kind?: PostingKind,
): Promise<{ id: string; posting: Posting }[]> {
  let query = db
    .selectFrom("ledger_postings as p")
    .innerJoin("ledger_entries as e", "e.posting_id", "p.id")
    .select(["p.id", "p.kind", "p.created_at", "e.account", "e.amount_cents"])
    .where("p.experiment_id", "=", experimentId);
  if (kind) query = query.where("p.kind", "=", kind);
  const rows = await query.orderBy("p.created_at").orderBy("p.id").orderBy("e.account").execute();
  const byId = new Map<
    string,
    { id: string; posting: Posting & { entries: Posting["entries"][number][] } }
  >();
  for (const row of rows) {
    let found = byId.get(row.id);
    if (!found) {
      found = { id: row.id, posting: { experimentId, kind: row.kind, entries: [] } };
      byId.set(row.id, found);
    }
    found.posting.entries.push({ account: row.account, amountCents: row.amount_cents });
  }
  return [...byId.values()];
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
  heldCents: number;
  returnedToRequesterCents: number;
  paidToOperatorCents: number;
  stillHeldCents: number;
  violations: string[];
}

/**
 * Checks the whole ledger in three queries: every posting balances and has two or more
 * entries; no account of an experiment is negative (requester_funds excepted); and per
 * experiment held = returned to requester + paid to operator + still in its own escrow, with no
 * other experiment's escrow touched. For tests and a money readiness check.
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
  const report: ConservationReport = {
    ok: false,
    experiments: sums.length,
    heldCents: 0,
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
  }
  report.ok = violations.length === 0;
  return report;
}
