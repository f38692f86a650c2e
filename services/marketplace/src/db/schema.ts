import type { MessagingTables } from "@petri/db";
import type { PostingKind } from "../domain/ledger/postings.js";

/** One posting per (experiment, kind). */
export interface LedgerPostingsTable {
  id: string;
  experiment_id: string;
  kind: PostingKind;
  created_at: Date;
}

/** Signed change of `account` in integer cents (> 0 debit, < 0 credit, never 0). */
export interface LedgerEntriesTable {
  posting_id: string;
  account: string;
  amount_cents: number;
}

export interface LedgerTables {
  ledger_postings: LedgerPostingsTable;
  ledger_entries: LedgerEntriesTable;
}

/** Tables of the marketplace schema. */
export type MarketplaceDb = MessagingTables & LedgerTables;
