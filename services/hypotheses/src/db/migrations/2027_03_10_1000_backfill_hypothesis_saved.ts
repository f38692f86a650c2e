import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { events } from "@petri/contracts";
import { HypothesisSchema } from "@petri/contracts/hypotheses";
import { buildEnvelope, encodeEnvelope } from "@petri/events";
import type { Kysely } from "kysely";

// Frozen in time: never import application types into a migration. The event's message is the
// published contract (buf breaking keeps its wire form), not an application type.

const PAGE = 500;

interface StoredHypothesis {
  id: string;
  owner_account_id: string;
  title: string;
  statement: string;
  null_hypothesis: string | null;
  experiment_type: string | null;
  status: string;
  intake_draft: unknown;
  experiments_count: number;
  engine_agent: string | null;
  engine_query: string | null;
  source_experiment_id: string | null;
  version: string | number;
  created_at: Date;
  updated_at: Date;
}

function outboxRow(row: StoredHypothesis, now: Date) {
  const version = Number(row.version);
  const hypothesis = create(HypothesisSchema, {
    id: row.id,
    ownerAccountId: row.owner_account_id,
    title: row.title,
    statement: row.statement,
    nullHypothesis: row.null_hypothesis ?? "",
    experimentType: row.experiment_type ?? "",
    status: row.status,
    intakeDraftJson: row.intake_draft === null ? "" : JSON.stringify(row.intake_draft),
    experimentsCount: row.experiments_count,
    engineAgent: row.engine_agent ?? "",
    engineQuery: row.engine_query ?? "",
    sourceExperimentId: row.source_experiment_id ?? "",
    version: BigInt(version),
    createdAt: timestampFromDate(new Date(row.created_at)),
    updatedAt: timestampFromDate(new Date(row.updated_at)),
  });
  const spec = events.hypotheses.hypothesisSaved;
  const envelope = buildEnvelope(
    spec,
    { hypothesis },
    { aggregateId: row.id, aggregateVersion: version, occurredAt: now },
  );
  return {
    id: envelope.id,
    subject: envelope.subject,
    type: envelope.type,
    aggregate_id: row.id,
    aggregate_version: version,
    envelope: encodeEnvelope(envelope),
    traceparent: null,
  };
}

/**
 * One HypothesisSaved per stored hypothesis, through the outbox, so that the experiments
 * service's hypothesis_views learns the hypotheses saved before the events existed (D349).
 * Each carries the stored version: a later change's event wins over it in the view.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const now = new Date();
  let after = "";
  for (;;) {
    const rows = (await db
      .selectFrom("hypotheses")
      .selectAll()
      .where("id", ">", after)
      .orderBy("id")
      .limit(PAGE)
      .execute()) as StoredHypothesis[];
    if (rows.length === 0) return;
    await db
      .insertInto("outbox")
      .values(rows.map((row) => outboxRow(row, now)))
      .execute();
    after = rows[rows.length - 1]!.id;
  }
}

export async function down(): Promise<void> {
  // Nothing to undo: published events cannot be recalled, and the view ignores stale versions.
}
