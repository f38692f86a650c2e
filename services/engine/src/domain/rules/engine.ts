/**
 * The offline rules engine: normalise -> recognise entities -> classify -> draft.
 *
 * Pure and deterministic (no clock, no randomness, no I/O): the same request gives a
 * deep-equal output. It never searches literature and never cites: `sources` is always empty
 * and the rationale says the text was drafted from rules (docs/assay-notes.md §4.1).
 */

import type { ExperimentTypeName } from "@petri/contracts/vocabulary";
import type {
  GeneratedHypothesis,
  GenerationRequest,
  HypothesisText,
  RecognisedEntities,
} from "../generation.js";
import { classify, type Classification } from "./classify.js";
import { draftForType, type TypeDraft } from "./draft/index.js";
import {
  extractEntities,
  mergeContext,
  testCompound,
  toRecognisedEntities,
  type Extraction,
} from "./extract.js";
import { clampText, prose, unique } from "./format.js";
import {
  biosafety,
  buildIntake,
  draftNotes,
  fitHypothesis,
  fitTitle,
  TYPE_DEFAULTS,
} from "./intake-draft.js";
import { clampCodePoints, normaliseText } from "./normalise.js";
import { abbreviatedList, classificationSummary, recordEntities, Trace } from "./trace.js";

export const RULES_ENGINE_ID = "offline-rules@1";
export const MAX_QUERY_CHARS = 4000;
export const MAX_CONTEXT_CHARS = 8000;

export interface RulesEngineOutput extends GeneratedHypothesis {
  entities: RecognisedEntities;
  /** A short keyword query for a literature search, built from the entities. */
  searchTerms: string;
}

export function runRulesEngine(request: GenerationRequest): RulesEngineOutput {
  const trace = new Trace();
  const { query, context } = normaliseRequest(request, trace);
  const fromQuery = extractEntities(query);
  const extraction = context === "" ? fromQuery : mergeContext(fromQuery, extractEntities(context));
  recordEntities(trace, extraction);

  const classification = classify(query, context, extraction, request.experimentType);
  const type = classification.type;
  trace.add(
    classification.decidedBy === "caller"
      ? "type_from_caller"
      : classification.decidedBy === "fallback"
        ? "type_defaulted_custom"
        : "type_classified",
    classificationSummary(classification),
  );

  const draft = draftForType(type, { text: query, extraction, cues: classification.cues }, query);
  const hypothesis = draftHypothesis(type, classification, extraction, draft, trace);
  const safety = biosafety(extraction);
  trace.add(
    "biosafety_assigned",
    safety.reasons.length > 0
      ? `Biosafety level BSL-${safety.level} from the organisms: ${abbreviatedList(safety.reasons)}.`
      : "No organism named: biosafety level BSL-1.",
  );
  const notes = draftNotes(type, draft, safety.level, extraction, `${query} ${context}`);
  const defaults = TYPE_DEFAULTS[type];
  const title = fitTitle(draft.title);
  const intake = buildIntake(
    type,
    { ...draft, title },
    hypothesis,
    extraction,
    safety.level,
    `${query} ${context}`,
  );
  trace.add(
    "intake_draft_built",
    `Built the POST /experiments body for ${type} with standard defaults (budget ${defaults.budgetUsd} USD, ${defaults.turnaroundDays} days, 3 x 3 replicates, privacy private); ${notes.length} notes list what to check.`,
  );

  return {
    hypothesis,
    experiment_type: type,
    intake_draft: intake,
    reasoning_trace: trace.steps,
    sources: [],
    engine: RULES_ENGINE_ID,
    literature_grounded: false,
    notes: unique(notes),
    entities: toRecognisedEntities(extraction),
    searchTerms: searchTermsFor(extraction, draft),
  };
}

/** Query and context clamped to their limits and normalised. */
function normaliseRequest(request: GenerationRequest, trace: Trace): { query: string; context: string } {
  const rawQuery = clampCodePoints(request.query ?? "", MAX_QUERY_CHARS);
  const rawContext = clampCodePoints(request.context ?? "", MAX_CONTEXT_CHARS);
  const query = normaliseText(rawQuery);
  const context = normaliseText(rawContext);
  const truncated =
    (request.query ?? "").length > rawQuery.length || (request.context ?? "").length > rawContext.length;
  trace.add(
    "normalise",
    `Normalised the query (Unicode NFKC, micro sign as "u", dashes and quotes, whitespace): ${query.length} characters${
      context !== "" ? `, plus ${context.length} characters of context` : ""
    }${truncated ? "; input beyond the limits (4000 query, 8000 context characters) was ignored" : ""}.`,
  );
  return { query, context };
}

/** The type's hypothesis template filled in, its negation and a template rationale. */
function draftHypothesis(
  type: ExperimentTypeName,
  classification: Classification,
  extraction: Extraction,
  draft: TypeDraft,
  trace: Trace,
): HypothesisText {
  trace.add(
    draft.criterion.source === "query" ? "threshold_from_query" : "standard_criterion_used",
    draft.criterion.source === "query"
      ? `Used the threshold stated in the query: ${draft.criterion.text}.`
      : `No threshold was stated; used the standard criterion: ${draft.criterion.text}.`,
  );
  trace.add("hypothesis_drafted", `Filled the ${type} hypothesis template: ${draft.statement}`);
  trace.add("null_hypothesis_drafted", `Negated the claim for the null hypothesis: ${draft.nullHypothesis}`);
  const rationale = rationaleFor(type, classification, extraction, draft);
  trace.add(
    "rationale_drafted",
    "Wrote a template rationale that names the rules used and states that no literature was searched.",
  );
  return fitHypothesis({ statement: draft.statement, null_hypothesis: draft.nullHypothesis, rationale });
}

function rationaleFor(
  type: ExperimentTypeName,
  classification: Classification,
  extraction: Extraction,
  draft: TypeDraft,
): string {
  const named = [
    ...extraction.organisms.map((o) => o.name),
    ...extraction.compounds.map((c) => c.name),
    ...extraction.cellLines.map((c) => c.name),
    ...extraction.enzymes.map((e) => e.name),
    ...extraction.genes.map((g) => g.name),
    ...extraction.plasmids.map((p) => p.name),
  ];
  const why =
    classification.decidedBy === "caller"
      ? `the caller chose ${type}`
      : classification.decidedBy === "fallback"
        ? "no standard experiment type matched clearly, so it is a custom experiment"
        : `its wording matches the cues of ${type} (${prose(unique(classification.cues.filter((c) => c.type === type).map((c) => c.label)).slice(0, 4))})`;
  const threshold =
    draft.criterion.source === "query"
      ? `The threshold (${draft.criterion.text}) is the one stated in the query.`
      : `No threshold was stated, so the standard criterion for this assay is used: ${draft.criterion.text}.`;
  return [
    `Drafted from rules, not from literature (template rationale): ${why}.`,
    named.length > 0
      ? `Entities recognised in the query: ${prose(unique(named).slice(0, 10))}.`
      : "No known entities were recognised in the query.",
    threshold,
    "No literature was searched, and neither novelty, prior evidence nor mechanism was assessed; check the draft before use.",
  ].join(" ");
}

function searchTermsFor(extraction: Extraction, draft: TypeDraft): string {
  const compound = testCompound(extraction);
  const terms = unique(
    [
      compound?.name,
      ...extraction.organisms.slice(0, 2).map((o) => o.name),
      extraction.cellLines[0]?.name,
      extraction.enzymes[0]?.name,
      ...extraction.genes
        .filter((g) => g.entry?.role !== "reference")
        .slice(0, 2)
        .map((g) => g.name),
      draft.searchKeywords,
    ].filter((t): t is string => t !== undefined && t !== ""),
  );
  return clampText(terms.join(" "), 200);
}

/**
 * An intake draft with another hypothesis (e.g. one an LLM wrote), clamped to the request's
 * length limits. Accepts the draft itself or a whole rules-engine output; neither is changed.
 */
export function draftWithHypothesis(
  draftOrOutput: Record<string, unknown> | Pick<RulesEngineOutput, "intake_draft">,
  hypothesis: HypothesisText,
): Record<string, unknown> {
  const source: Record<string, unknown> =
    "intake_draft" in draftOrOutput &&
    typeof draftOrOutput.intake_draft === "object" &&
    draftOrOutput.intake_draft !== null
      ? (draftOrOutput.intake_draft as Record<string, unknown>)
      : (draftOrOutput as Record<string, unknown>);
  const draft = structuredClone(source);
  draft.hypothesis = fitHypothesis(hypothesis);
  return draft;
}
