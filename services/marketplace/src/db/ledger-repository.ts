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
import { FixedQuery } from "@petri/db";
import { type Kysely, type QueryCreator, type Transaction, sql } from "kysely";
import { REQUESTER_FUNDS } from "../domain/ledger/accounts.js";
import { LedgerError } from "../domain/ledger/errors.js";
import type { ExperimentLedger } from "../domain/ledger/experiment-ledger.js";
import {
  type Posting,
  type PostingKind,
  assertValidPosting,
  canOverdraw,
  postingKey,
  samePosting,
} from "../domain/ledger/postings.js";
import { type HoldTarget, upsertHoldTarget } from "./hold-targets.js";
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
  const inserted = await holdStatement.executeTakeFirst(trx, {
    ...postingRow(hold, { id: options.id ?? newPostingId(), now: options.now }),
    ...entryColumns(hold),
    targetCents: target.targetCents,
    targetVersion: target.version,
  });
  if (!inserted) return replayOf(trx, hold);
  return { postingId: inserted.id, recorded: true };
}

/** recordHold's statement, compiled and prepared once: every submission (each POST) runs it. */
const holdStatement = new FixedQuery<
  LedgerTables,
  PostingRow & EntryColumns & { targetCents: number; targetVersion: number },
  { id: string }
>(
  (db, value) => {
    const row = {
      id: value("id"),
      experimentId: value("experimentId"),
      kind: value("kind"),
      key: value("key"),
      now: value("now"),
    };
    return (
      db
        .with("posting", (cte) => insertPosting(cte, row))
        .with("entries", (cte) =>
          insertEntries(cte, { accounts: value("accounts"), amounts: value("amounts") }),
        )
        // The other CTEs' names are not tables of the target's insert.
        .with("target", (cte) =>
          upsertHoldTarget(
            cte as unknown as QueryCreator<LedgerTables>,
            row.experimentId,
            { targetCents: value("targetCents"), version: value("targetVersion") },
            row.now,
          ),
        )
        .selectFrom("posting")
        .select("posting.id")
    );
  },
  { prepared: true },
);

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
    .with("posting", (db) => insertPosting(db, postingRow(posting, row)))
    .with("entries", (db) => insertEntries(db, entryColumns(posting)))
    .selectFrom("posting")
    .select("posting.id")
    .executeTakeFirst();
}

function newPostingId(): string {
  return `lp_${randomUUID().replaceAll("-", "")}`;
}

/** A posting's row in ledger_postings. */
type PostingRow = {
  id: string;
  experimentId: string;
  kind: PostingKind;
  key: string;
  now: Date;
};

function postingRow(posting: Posting, row: { id: string; now: Date }): PostingRow {
  return {
    id: row.id,
    experimentId: posting.experimentId,
    kind: posting.kind,
    key: postingKey(posting),
    now: row.now,
  };
}

/** The posting's row unless its (experiment, kind, key) is stored already; returns its id. */
function insertPosting(db: QueryCreator<LedgerTables>, row: PostingRow) {
  return db
    .insertInto("ledger_postings")
    .values({
      id: row.id,
      experiment_id: row.experimentId,
      kind: row.kind,
      key: row.key,
      created_at: row.now,
    })
    .onConflict((oc) => oc.columns(["experiment_id", "kind", "key"]).doNothing())
    .returning("id");
}

/** A posting's entries as two arrays in step (one statement parameter each). */
type EntryColumns = {
  accounts: string[];
  amounts: number[];
};

function entryColumns(posting: Posting): EntryColumns {
  return {
    accounts: posting.entries.map((entry) => entry.account),
    amounts: posting.entries.map((entry) => entry.amountCents),
  };
}

/** The entries, for the row of the statement's "posting" CTE (none when it inserted none). */
function insertEntries(db: QueryCreator<LedgerTables & { posting: { id: string } }>, entries: EntryColumns) {
  return db
    .insertInto("ledger_entries")
    .columns(["posting_id", "account", "amount_cents"])
    .expression((eb) =>
      eb.selectFrom("posting").select([
        "posting.id",
        // Set-returning functions in one select list run in step: one row per entry.
        sql<string>`unnest(${entries.accounts}::text[])`.as("account"),
        sql<number>`unnest(${entries.amounts}::bigint[])`.as("amount_cents"),
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

/** The experiment's postings as a domain ledger (input to the postingsFor* functions). */
export async function loadLedger<DB extends LedgerTables>(
  database: Kysely<DB>,
  experimentId: string,
): Promise<ExperimentLedger> {
  const db = database as unknown as Kysely<LedgerTables>;
  const rows = await loadLedgerRows(db, experimentId);
  return { experimentId, postings: rows.map((row) => row.posting) };
}
