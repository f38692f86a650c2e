/**
 * petri.hypotheses.hypothesis_saved -> hypothesis_views (D349): the hypothesis as it is after
 * the change, kept unless a newer version is already there; each upsert is announced to the
 * requests waiting for that hypothesis (the bounded wait of CreateExperimentFromHypothesis).
 */
import type { HypothesisSaved } from "@petri/contracts/hypotheses";
import type { Kysely } from "kysely";
import { upsertHypothesisView } from "../db/hypothesis-views.js";
import type { ExperimentsDb } from "../db/schema.js";
import type { HypothesisView, JsonObject } from "../domain/from-hypothesis/index.js";

/** The view of the event's hypothesis; undefined for one without an id. */
export function hypothesisViewOf(event: HypothesisSaved): HypothesisView | undefined {
  const hypothesis = event.hypothesis;
  if (!hypothesis || hypothesis.id === "") return undefined;
  return {
    id: hypothesis.id,
    ownerAccountId: hypothesis.ownerAccountId,
    status: hypothesis.status,
    title: hypothesis.title,
    statement: hypothesis.statement,
    nullHypothesis: hypothesis.nullHypothesis === "" ? null : hypothesis.nullHypothesis,
    experimentType: hypothesis.experimentType === "" ? null : hypothesis.experimentType,
    intakeDraft:
      hypothesis.intakeDraftJson === "" ? null : (JSON.parse(hypothesis.intakeDraftJson) as JsonObject),
    version: Number(hypothesis.version),
  };
}

/** Applies the event; returns the id of the hypothesis it was about, for the announcement. */
export async function applyHypothesisSaved(
  db: Kysely<ExperimentsDb>,
  event: HypothesisSaved,
): Promise<string | undefined> {
  const view = hypothesisViewOf(event);
  if (!view) return undefined;
  await upsertHypothesisView(db, view);
  return view.id;
}
