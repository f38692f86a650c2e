/**
 * Ledger checks, read-only: one experiment's balances, and the conservation of money across
 * every experiment's postings (the CheckLedger RPC and tests).
 */
import { type Kysely, sql } from "kysely";
import { REQUESTER_FUNDS } from "../domain/ledger/accounts.js";
import {
  type LedgerSummary,
  type PaymentState,
  paymentStateOf,
  summarize,
} from "../domain/ledger/experiment-ledger.js";
import { loadLedger } from "./ledger-repository.js";
import type { LedgerTables } from "./schema.js";

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
  const violations = [...(await unbalancedPostings(db)), ...(await negativeBalances(db))];
  const sums = await experimentSums(db);
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

/** Postings whose entries do not sum to zero, or that have fewer than two entries. */
async function unbalancedPostings(db: Kysely<LedgerTables>): Promise<string[]> {
  const rows = await db
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
  return rows.map(
    (row) =>
      `${row.experiment_id}: ${row.kind} posting ${row.id} has ${row.entries} entries, imbalance ${row.imbalance}`,
  );
}

/** Accounts of an experiment below zero (requester_funds, where money comes from, excepted). */
async function negativeBalances(db: Kysely<LedgerTables>): Promise<string[]> {
  const rows = await db
    .selectFrom("ledger_entries as e")
    .innerJoin("ledger_postings as p", "p.id", "e.posting_id")
    .select(["p.experiment_id", "e.account", sql<number>`sum(e.amount_cents)::bigint`.as("balance")])
    .where("e.account", "<>", REQUESTER_FUNDS)
    .groupBy(["p.experiment_id", "e.account"])
    .having(sql<boolean>`sum(e.amount_cents) < 0`)
    .execute();
  return rows.map((row) => `${row.experiment_id}: ${row.account} is negative (${row.balance})`);
}

/** Per experiment, the balances view: held, returned, paid, still held, and touches of other escrows. */
function experimentSums(db: Kysely<LedgerTables>) {
  return db
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
