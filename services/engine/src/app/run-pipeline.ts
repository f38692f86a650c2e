/**
 * The generation pipeline shared by runs and the synchronous endpoint: the offline rules
 * engine always reads the query (entities, experiment type, hypothesis, intake draft); a
 * literature provider, when configured, adds verified sources; an LLM writer, when
 * configured, rewrites the hypothesis text (the type and the intake draft stay the rules'
 * so the draft still validates). Nothing is silently replaced: what each step did is in the
 * reasoning trace, and a literature_review without a literature provider fails instead of
 * pretending.
 */
import type { ExperimentTypeName } from "@petri/contracts/vocabulary";
import {
  ENGINE_STAGES,
  type EngineStage,
  type GeneratedHypothesis,
  type GenerationRequest,
  type HypothesisText,
  type HypothesisWriter,
  type LiteratureProvider,
  type ReasoningStep,
  type RecognisedEntities,
  type VerifiedSource,
} from "../domain/generation.js";

/** The offline rules engine's answer (domain/rules). */
export interface RulesResult {
  experiment_type: ExperimentTypeName;
  hypothesis: HypothesisText;
  intake_draft: Record<string, unknown>;
  reasoning_trace: ReasoningStep[];
  entities: RecognisedEntities;
  notes: string[];
  engine: string;
  searchTerms: string;
}

export interface EngineProviders {
  rules(request: GenerationRequest): RulesResult;
  /** The rules' intake draft with another hypothesis text in it. */
  withHypothesis(draft: Record<string, unknown>, hypothesis: HypothesisText): Record<string, unknown>;
  writer?: HypothesisWriter | undefined;
  literature?: LiteratureProvider | undefined;
}

/** Sources kept per run: enough to read, few enough to verify each one. */
export const SOURCES_PER_RUN = 5;

/** A run that cannot be served as asked; its code and message become the run's error. */
export class RunFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "RunFailure";
  }
}

export type ReportStage = (stage: EngineStage, percentage: number) => Promise<void>;

export async function runPipeline(
  request: GenerationRequest,
  providers: EngineProviders,
  report: ReportStage,
  signal: AbortSignal,
): Promise<GeneratedHypothesis> {
  const stage = async (name: EngineStage) => {
    signal.throwIfAborted();
    await report(name, ENGINE_STAGES[name]);
  };
  await stage("parsing");
  if (request.jobType === "literature_review" && !providers.literature)
    throw new RunFailure(
      "literature_provider_unavailable",
      "a literature_review needs a literature provider and none is configured on this deployment (PETRI_ENGINE_LITERATURE); the offline engine does not search or cite literature",
    );
  const rules = providers.rules(request);
  await stage("entity_extraction");
  await stage("classification");

  const trace: Omit<ReasoningStep, "step">[] = rules.reasoning_trace.map(({ action, summary }) => ({
    action,
    summary,
  }));
  const notes = [...rules.notes];
  const sources = providers.literature
    ? await searchLiterature(providers.literature, rules.searchTerms, { trace, notes, stage, signal })
    : notConfigured(trace);

  await stage("drafting");
  let hypothesis = rules.hypothesis;
  let intakeDraft = rules.intake_draft;
  let engine = rules.engine;
  if (providers.writer) {
    const written = await providers.writer.write(
      {
        query: request.query,
        context: request.context,
        experimentType: rules.experiment_type,
        entities: rules.entities,
        sources,
      },
      signal,
    );
    hypothesis = {
      statement: written.statement,
      null_hypothesis: written.null_hypothesis,
      rationale: written.rationale,
    };
    intakeDraft = providers.withHypothesis(intakeDraft, hypothesis);
    engine = providers.writer.id;
    trace.push({
      action: "llm:hypothesis_written",
      summary: `${providers.writer.id} wrote the statement, null hypothesis and rationale from the query${sources.length > 0 ? ` and the titles of ${sources.length} verified source(s)` : ""}; the experiment type and the intake draft come from the rules above.${written.experiment_type && written.experiment_type !== rules.experiment_type ? ` It suggested ${written.experiment_type}; the type was kept as ${rules.experiment_type}.` : ""}`,
    });
  }
  signal.throwIfAborted();
  return {
    hypothesis,
    experiment_type: rules.experiment_type,
    intake_draft: intakeDraft,
    reasoning_trace: trace.map((step, index) => ({ step: index + 1, ...step })),
    sources,
    engine,
    literature_grounded: sources.length > 0,
    notes,
  };
}

/** The trace and notes a run builds up, and how it reports entering a stage. */
interface RunRecord {
  trace: Omit<ReasoningStep, "step">[];
  notes: string[];
  stage: (name: EngineStage) => Promise<void>;
  signal: AbortSignal;
}

/** Sources whose DOI resolved and whose registered title matched, at most SOURCES_PER_RUN. */
async function searchLiterature(
  literature: LiteratureProvider,
  searchTerms: string,
  run: RunRecord,
): Promise<VerifiedSource[]> {
  await run.stage("literature_search");
  const found = await literature.findSources(searchTerms, { limit: SOURCES_PER_RUN, signal: run.signal });
  const sources = found.sources.slice(0, SOURCES_PER_RUN);
  const rejected = found.rejected.length;
  run.trace.push({
    action: "literature:search",
    summary: `Searched ${literature.id} for "${searchTerms}": ${sources.length} source(s) kept after their DOI resolved and the registered title matched${rejected > 0 ? `; ${rejected} candidate(s) dropped (${[...new Set(found.rejected.map((r) => r.reason))].join(", ")})` : ""}.`,
  });
  if (sources.length === 0)
    run.notes.push("No verified source was found for this query: the hypothesis is not literature-grounded.");
  return sources;
}

/** Without a literature provider nothing is searched: the trace says so. */
function notConfigured(trace: RunRecord["trace"]): VerifiedSource[] {
  trace.push({
    action: "literature:not_configured",
    summary:
      "No literature provider is configured: nothing was searched, no source is cited, and the draft is not literature-grounded.",
  });
  return [];
}
