/**
 * The offline rules engine: normalise -> recognise entities -> classify -> draft.
 *
 * Pure and deterministic (no clock, no randomness, no I/O): the same request gives a
 * deep-equal output. It never searches literature and never cites: `sources` is always empty
 * and the rationale says the text was drafted from rules (docs/assay-notes.md §4.1).
 */
import type { ExperimentType } from "@petri/contracts";

import type {
  GeneratedHypothesis,
  GenerationRequest,
  HypothesisText,
  ReasoningStep,
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
import { clampText, num, prose, quantity, unique } from "./format.js";
import { clampCodePoints, normaliseText } from "./normalise.js";

export const RULES_ENGINE_ID = "offline-rules@1";
export const MAX_QUERY_CHARS = 4000;
export const MAX_CONTEXT_CHARS = 8000;

export interface RulesEngineOutput extends GeneratedHypothesis {
  entities: RecognisedEntities;
  /** A short keyword query for a literature search, built from the entities. */
  searchTerms: string;
}

/** Placeholder budget (midpoint of docs/intake-model.md's typical band) and turnaround per type. */
export const TYPE_DEFAULTS: Readonly<Record<ExperimentType, { budgetUsd: number; turnaroundDays: number }>> =
  {
    SANGER_PLASMID_VERIFICATION: { budgetUsd: 100, turnaroundDays: 7 },
    QPCR_EXPRESSION: { budgetUsd: 350, turnaroundDays: 14 },
    CELL_VIABILITY_IC50: { budgetUsd: 550, turnaroundDays: 21 },
    ENZYME_INHIBITION_IC50: { budgetUsd: 400, turnaroundDays: 14 },
    MICROBIAL_GROWTH_MATRIX: { budgetUsd: 275, turnaroundDays: 14 },
    MIC_MBC_ASSAY: { budgetUsd: 300, turnaroundDays: 14 },
    ZONE_OF_INHIBITION: { budgetUsd: 175, turnaroundDays: 10 },
    CUSTOM: { budgetUsd: 1000, turnaroundDays: 30 },
  };

const LIMITS = { title: 200, statement: 1000, nullHypothesis: 1000, rationale: 2000 } as const;

class Trace {
  readonly steps: ReasoningStep[] = [];

  add(action: string, summary: string): void {
    this.steps.push({
      step: this.steps.length + 1,
      action: `rule:${action}`,
      summary: clampText(summary, 1000),
    });
  }
}

function list(items: readonly string[], max = 8): string {
  const shown = items.slice(0, max);
  return items.length > max ? `${shown.join("; ")}; and ${items.length - max} more` : shown.join("; ");
}

function recordEntities(trace: Trace, extraction: Extraction): void {
  if (extraction.corrections.length > 0) {
    trace.add(
      "typo_corrected",
      `Read as vocabulary terms despite a spelling difference: ${list(extraction.corrections.map((c) => `"${c.found}" as ${c.readAs}`))}.`,
    );
  }
  if (extraction.organisms.length > 0) {
    trace.add(
      "organism_recognised",
      `Organisms: ${list(
        extraction.organisms.map((o) => {
          const facts = [
            o.strain ? `strain ${o.strain}${o.strainInfo?.clsiQc ? " (CLSI QC strain)" : ""}` : undefined,
            o.entry?.kind === "fungus" ? "fungus" : o.entry?.gram ? `Gram-${o.entry.gram}` : undefined,
            o.entry ? undefined : "not in the vocabulary (genus recognised)",
          ].filter(Boolean);
          return facts.length > 0 ? `${o.name} (${facts.join(", ")})` : o.name;
        }),
      )}.`,
    );
  }
  if (extraction.compounds.length > 0) {
    trace.add(
      "compound_recognised",
      `Compounds: ${list(
        extraction.compounds.map((c) => {
          const kind =
            c.antimicrobial?.class ??
            c.reference?.use ??
            (c.source === "extract" ? "extract" : "name not in the vocabulary (code or introduced name)");
          return `${c.name} (${kind}${c.control ? "; named as a control or comparator" : ""})`;
        }),
      )}.`,
    );
  }
  if (extraction.cellLines.length > 0) {
    trace.add(
      "cell_line_recognised",
      `Cell lines: ${list(extraction.cellLines.map((c) => `${c.name} (${[c.entry?.species, c.entry?.tissue].filter(Boolean).join(", ")})`))}.`,
    );
  }
  if (extraction.genes.length > 0) {
    trace.add(
      "gene_recognised",
      `Genes: ${list(extraction.genes.map((g) => `${g.name}${g.entry ? (g.entry.role === "reference" ? " (reference gene)" : "") : " (symbol next to an expression word)"}`))}.`,
    );
  }
  if (extraction.enzymes.length > 0) {
    trace.add(
      "enzyme_recognised",
      `Enzymes or targets: ${list(extraction.enzymes.map((e) => `${e.name}${e.entry?.family ? ` (${e.entry.family})` : e.entry ? "" : " (named by its enzyme family noun)"}`))}.`,
    );
  }
  if (extraction.plasmids.length > 0) {
    trace.add("plasmid_recognised", `Plasmids: ${list(extraction.plasmids.map((p) => p.name))}.`);
  }
  if (extraction.media.length > 0) {
    trace.add("medium_recognised", `Media: ${list(extraction.media.map((m) => m.name))}.`);
  }
  if (extraction.concentrations.length > 0) {
    trace.add(
      "concentration_parsed",
      `Concentrations: ${list(unique(extraction.concentrations.map((q) => quantity(q.value, q.unit))), 12)}.`,
    );
  }
  if (extraction.durations.length > 0) {
    trace.add(
      "duration_parsed",
      `Durations: ${list(unique(extraction.durations.map((q) => quantity(q.value, q.unit))), 12)}.`,
    );
  }
  if (extraction.temperatures.length > 0) {
    trace.add(
      "temperature_parsed",
      `Temperatures: ${list(unique(extraction.temperatures.map((q) => `${num(q.value)} ${q.unit}`)), 12)}.`,
    );
  }
}

function classificationSummary(c: Classification): string {
  const cues = c.cues
    .filter((cue) => cue.type === c.type)
    .map((cue) => `${cue.label}${cue.where === "context" ? " (context)" : ""}`);
  const evidence = c.evidence.filter((e) => e.type === c.type).map((e) => e.label);
  const ranked = (Object.entries(c.scores) as [string, number][])
    .filter(([, score]) => score > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([type, score]) => `${type} ${num(score)}`);
  const scores = ranked.length > 0 ? ` Scores: ${ranked.join(", ")}.` : "";
  if (c.decidedBy === "caller")
    return `The caller chose ${c.type}; cue scoring was not used to decide.${scores}`;
  if (c.decidedBy === "fallback") {
    return `No experiment type reached the threshold with a clear lead${c.runnerUp ? ` (closest: ${c.runnerUp})` : ""}, so the request is CUSTOM.${scores}`;
  }
  const why = [...cues, ...evidence];
  return `Classified as ${c.type} from ${why.length > 0 ? prose(why) : "its cues"}.${scores}`;
}

function biosafety(extraction: Extraction): { level: number; reasons: string[] } {
  const reasons: string[] = [];
  let level = 1;
  for (const o of extraction.organisms) {
    const known = o.strainInfo?.bsl ?? o.entry?.bsl;
    const organismLevel = known ?? 2;
    reasons.push(
      known !== undefined
        ? `${o.name}${o.strainInfo?.bsl !== undefined ? ` ${o.strain}` : ""}: BSL-${known}`
        : `${o.name}: level not certain, assumed BSL-2`,
    );
    level = Math.max(level, organismLevel);
  }
  return { level, reasons };
}

function rationaleFor(
  type: ExperimentType,
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

const HUMAN_MATERIAL =
  /\bhuman (?:serum|plasma|blood|whole blood|red blood cells|erythrocytes|primary cells|tissue|saliva|urine|sputum)\b|\bPBMCs?\b/i;

function buildIntake(
  type: ExperimentType,
  draft: TypeDraft,
  hypothesis: HypothesisText,
  extraction: Extraction,
  bsl: number,
  text: string,
): Record<string, unknown> {
  const defaults = TYPE_DEFAULTS[type];
  const species = extraction.cellLines.map((c) => c.entry?.species);
  const acceptance: Record<string, unknown> = {
    success_conditions: draft.successConditions,
    failure_conditions: draft.failureConditions,
    statistical_requirements: {
      significance_level: 0.05,
      ...(draft.statisticalTest ? { statistical_test: draft.statisticalTest } : {}),
    },
  };
  return {
    experiment_type: type,
    title: draft.title,
    hypothesis: { ...hypothesis },
    compliance: {
      bsl: `BSL-${Math.min(bsl, 4)}`,
      human_derived_material: species.includes("human") || HUMAN_MATERIAL.test(text),
      animal_derived_material: species.some((s) => s !== undefined && s !== "human"),
    },
    privacy: "private",
    turnaround_budget: {
      budget_max_usd: defaults.budgetUsd,
      desired_turnaround_days: defaults.turnaroundDays,
    },
    replicates: replicatesFor(type),
    deliverables: {
      minimum_package_level: draft.packageLevel,
      raw_data_formats: draft.rawDataFormats,
      required_processed_outputs: draft.processedOutputs,
    },
    acceptance_criteria: acceptance,
    ...(draft.materials.length > 0 ? { materials_provided: draft.materials } : {}),
    ...draft.sections,
  };
}

function fitHypothesis(hypothesis: HypothesisText): HypothesisText {
  const statement = clampText(hypothesis.statement.trim(), LIMITS.statement);
  return {
    statement: statement.length >= 10 ? statement : `${statement} (statement to be completed)`.trim(),
    null_hypothesis: clampText(hypothesis.null_hypothesis.trim(), LIMITS.nullHypothesis),
    rationale: clampText(hypothesis.rationale.trim(), LIMITS.rationale),
  };
}

function fitTitle(title: string): string {
  const clamped = clampText(title.trim(), LIMITS.title);
  return clamped.length >= 5 ? clamped : "Experiment drafted from a query";
}

export function runRulesEngine(request: GenerationRequest): RulesEngineOutput {
  const trace = new Trace();
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

  const hypothesis = fitHypothesis({
    statement: draft.statement,
    null_hypothesis: draft.nullHypothesis,
    rationale,
  });
  const safety = biosafety(extraction);
  trace.add(
    "biosafety_assigned",
    safety.reasons.length > 0
      ? `Biosafety level BSL-${safety.level} from the organisms: ${list(safety.reasons)}.`
      : "No organism named: biosafety level BSL-1.",
  );
  const notes = [...draft.notes];
  if (safety.level >= 3) {
    notes.unshift(
      `An organism in the query needs BSL-${safety.level}; Petri accepts BSL-1 and BSL-2 work only, so this draft will be rejected at validation.`,
    );
  }
  if (
    extraction.cellLines.some((c) => c.entry?.species === "human") ||
    HUMAN_MATERIAL.test(`${query} ${context}`)
  ) {
    notes.push(
      "Human-derived material: compliance.human_derived_material is set; set compliance.bsl to BSL-2 if your institution requires it.",
    );
  }
  const defaults = TYPE_DEFAULTS[type];
  notes.push(
    `Budget ${defaults.budgetUsd} USD and turnaround ${defaults.turnaroundDays} days are placeholders; POST /estimate prices the request.`,
    type === "ZONE_OF_INHIBITION"
      ? "Replicates (3 replicate disks on one lawn, 1 biological) and privacy (private) are defaults; add lawns (biological replicates) if you need them."
      : "Replicates (3 technical x 3 biological) and privacy (private) are defaults.",
  );
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

/**
 * Default replicates: 3 x 3, except disk diffusion, whose technical replicates are disks on one
 * lawn (a lawn per biological replicate is a separate plate, which a cloud lab runs as a
 * separate protocol).
 */
function replicatesFor(type: ExperimentType): { technical: number; biological: number } {
  return type === "ZONE_OF_INHIBITION" ? { technical: 3, biological: 1 } : { technical: 3, biological: 3 };
}
