/**
 * Every change to a hypothesis records HypothesisSaved in its outbox, in the transaction of the
 * change, carrying the hypothesis after it (without the engine's response); a call that changes
 * nothing records nothing; the one-off migration records one per hypothesis stored before.
 * PostgreSQL and PGlite.
 */
import { events } from "@petri/contracts";
import type { HypothesisSaved } from "@petri/contracts/hypotheses";
import { decodeEnvelope, decodePayload } from "@petri/events";
import { newId } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { insertHypothesis } from "../src/db/hypotheses.js";
import { up as backfill } from "../src/db/migrations/2027_03_10_1000_backfill_hypothesis_saved.js";
import { ENGINES, type Hypotheses, hypothesesOfBlock, requester } from "./support/harness.js";

const MANUAL = {
  title: "Drug X lowers GENE1",
  statement: "Drug X at 10 uM lowers GENE1 expression in HeLa cells within 24 h.",
};

describe.each(ENGINES)("hypothesis events on %s", (engine) => {
  let h: Hypotheses;
  hypothesesOfBlock(engine, (started) => (h = started));

  /** The HypothesisSaved events recorded for `id`, oldest first, with their aggregate versions. */
  async function savedEvents(id: string) {
    const rows = await (h.db as Kysely<any>)
      .selectFrom("outbox")
      .select(["subject", "aggregate_version", "envelope"])
      .where("aggregate_id", "=", id)
      .orderBy("seq")
      .execute();
    return rows.map((row) => {
      expect(row.subject).toBe(events.hypotheses.hypothesisSaved.subject);
      const payload = decodePayload(decodeEnvelope(row.envelope as Uint8Array)) as HypothesisSaved;
      return { version: Number(row.aggregate_version), hypothesis: payload.hypothesis! };
    });
  }

  it("create, update, link and archive each record the hypothesis after the change; no-ops record nothing", async () => {
    const owner = requester();
    const client = h.as(owner);
    const { hypothesis } = await client.createHypothesis({
      ...MANUAL,
      experimentType: "QPCR_EXPRESSION",
      intakeDraftJson: JSON.stringify({ budget_usd: 900 }),
      engineAgent: "hypothesis_generation",
      engineQuery: "what lowers GENE1?",
      engineResponseJson: JSON.stringify({ sources: [{ doi: "10.1/x" }] }),
    });
    const id = hypothesis!.id;
    await client.updateHypothesis({ hypothesisId: id, title: "Renamed" });
    await client.updateHypothesis({ hypothesisId: id, title: "Renamed" });
    const experimentId = newId("exp");
    await client.linkExperimentToHypothesis({ hypothesisId: id, experimentId });
    await client.linkExperimentToHypothesis({ hypothesisId: id, experimentId });
    await client.archiveHypothesis({ hypothesisId: id });
    await client.archiveHypothesis({ hypothesisId: id });

    const saved = await savedEvents(id);
    expect(saved.map((e) => [e.version, e.hypothesis.status, e.hypothesis.title])).toEqual([
      [1, "DRAFT", MANUAL.title],
      [2, "DRAFT", "Renamed"],
      [3, "USED", "Renamed"],
      [4, "ARCHIVED", "Renamed"],
    ]);
    expect(saved[0]!.hypothesis).toMatchObject({
      id,
      ownerAccountId: owner.accountId,
      statement: MANUAL.statement,
      experimentType: "QPCR_EXPRESSION",
      intakeDraftJson: JSON.stringify({ budget_usd: 900 }),
      engineAgent: "hypothesis_generation",
      engineResponseJson: "",
      version: 1n,
    });
    expect(saved[2]!.hypothesis.experimentsCount).toBe(1);
  });

  it("the back-fill records one event per stored hypothesis, at its stored version", async () => {
    const owner = requester();
    const now = h.clock.now();
    const stored = await insertHypothesis(h.db, {
      id: newId("hyp", now),
      ownerAccountId: owner.accountId,
      ...MANUAL,
      nullHypothesis: "Drug X does not change GENE1.",
      experimentType: null,
      status: "USED",
      intakeDraft: { hypothesis: { statement: "s" } },
      experimentsCount: 2,
      engineAgent: null,
      engineQuery: null,
      engineResponse: null,
      sourceExperimentId: null,
      version: 5,
      createdAt: now,
      updatedAt: now,
    });
    expect(await savedEvents(stored.id)).toEqual([]);

    await backfill(h.db);
    const saved = await savedEvents(stored.id);
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({
      version: 5,
      hypothesis: {
        id: stored.id,
        ownerAccountId: owner.accountId,
        status: "USED",
        nullHypothesis: "Drug X does not change GENE1.",
        experimentType: "",
        intakeDraftJson: JSON.stringify({ hypothesis: { statement: "s" } }),
        experimentsCount: 2,
        version: 5n,
      },
    });
  });
});
