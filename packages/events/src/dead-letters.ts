/**
 * Staff work on a service's dead letters, written once for every service: list them (newest
 * first, across services by a shared keyset) and replay one through its consumer.
 */
import type { ServiceName } from "@petri/contracts";
import type { DeadLettersTable, MessagingTables } from "@petri/db";
import type { Clock } from "@petri/service-kit";
import type { Kysely, Selectable } from "kysely";
import type { ConsumerRunner } from "./consumer-runner.js";
import { decodeEnvelope } from "./envelope.js";
import { errorMessage } from "./internal/async.js";

export type DeadLetterRow = Selectable<DeadLettersTable>;

/** "dl_<service>_<row id>": the id says which service holds the row. */
export function deadLetterId(service: ServiceName, rowId: number): string {
  return `dl_${service}_${rowId}`;
}

/** The service and row id of a dead letter id, or undefined when it is not one. */
export function parseDeadLetterId(id: string): { service: string; rowId: number } | undefined {
  const match = /^dl_([a-z-]+)_([1-9][0-9]{0,17})$/.exec(id);
  if (!match) return undefined;
  const rowId = Number(match[2]);
  return Number.isSafeInteger(rowId) ? { service: match[1]!, rowId } : undefined;
}

/**
 * Position in the staff list, ordered by (failed_at, service, row id) descending across every
 * service, so the gateway can merge the services' pages and resume after any entry.
 */
export interface DeadLetterPosition {
  failedAt: Date;
  service: string;
  rowId: number;
}

export interface ListDeadLettersInput {
  limit: number;
  /** Only entries after this one in the list's order. */
  after?: DeadLetterPosition | undefined;
  consumer?: string | undefined;
  /** Replayed ones too (default: pending only). */
  includeReplayed?: boolean | undefined;
}

export type ReplayOutcome =
  | { kind: "not_found" }
  /** Applied now, or found applied already (inbox): marked replayed. */
  | { kind: "replayed"; row: DeadLetterRow; result: "applied" | "duplicate" | "skipped" }
  /** Marked replayed before: nothing done. */
  | { kind: "already_replayed"; row: DeadLetterRow }
  /** The handler failed again: still pending, with the new reason. */
  | { kind: "failed"; row: DeadLetterRow };

export function createDeadLetters(deps: {
  service: ServiceName;
  db: Kysely<any>;
  clock: Clock;
  runners: readonly ConsumerRunner[];
}) {
  const db = deps.db as Kysely<MessagingTables>;
  const byId = (rowId: number) => db.selectFrom("dead_letters").selectAll().where("id", "=", rowId);

  async function list(input: ListDeadLettersInput): Promise<DeadLetterRow[]> {
    let query = db.selectFrom("dead_letters").selectAll();
    if (!input.includeReplayed) query = query.where("replayed_at", "is", null);
    if (input.consumer) query = query.where("consumer", "=", input.consumer);
    const after = input.after;
    if (after) {
      // The service's place in the shared order decides how rows at the same instant compare.
      if (deps.service < after.service) query = query.where("failed_at", "<=", after.failedAt);
      else if (deps.service > after.service) query = query.where("failed_at", "<", after.failedAt);
      else
        query = query.where((eb) =>
          eb.or([
            eb("failed_at", "<", after.failedAt),
            eb.and([eb("failed_at", "=", after.failedAt), eb("id", "<", after.rowId)]),
          ]),
        );
    }
    return query.orderBy("failed_at", "desc").orderBy("id", "desc").limit(input.limit).execute();
  }

  async function replay(rowId: number, staffId: string): Promise<ReplayOutcome> {
    const row = await byId(rowId).executeTakeFirst();
    if (!row) return { kind: "not_found" };
    if (row.replayed_at) return { kind: "already_replayed", row };
    const runner = deps.runners.find((candidate) => candidate.name === row.consumer);
    try {
      if (!runner) throw new Error(`consumer ${row.consumer} no longer exists in this service`);
      const result = await runner.replay(decodeEnvelope(row.envelope));
      const marked = await db
        .updateTable("dead_letters")
        .set({ replayed_at: deps.clock.now(), replayed_by: staffId })
        .where("id", "=", rowId)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { kind: "replayed", row: marked, result };
    } catch (err) {
      const reason = errorMessage(err).slice(0, 4_000);
      const updated = await db
        .updateTable("dead_letters")
        .set((eb) => ({ reason, attempts: eb("attempts", "+", 1), failed_at: deps.clock.now() }))
        .where("id", "=", rowId)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { kind: "failed", row: updated };
    }
  }

  return { list, replay };
}

export type DeadLetters = ReturnType<typeof createDeadLetters>;
