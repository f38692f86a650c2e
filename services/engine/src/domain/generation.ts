import type { ExperimentTypeName } from "@petri/contracts/vocabulary";

/**
 * The shapes every hypothesis-generation provider shares (docs/api.md "Engine run" and
 * "Hypothesis-generation engine"). Pure types: the offline rules engine, the
 * OpenAI-compatible writer and the literature provider all speak them, and the run pipeline
 * (app/) composes them.
 */

export type JobType = "hypothesis_generation" | "literature_review";

/** What the caller asked for. The query and context are already bounded and trimmed. */
export interface GenerationRequest {
  query: string;
  /** "" when none was given. */
  context: string;
  jobType: JobType;
  /** The caller's choice; when absent the rules engine classifies the query. */
  experimentType?: ExperimentTypeName;
}

export interface HypothesisText {
  statement: string;
  null_hypothesis: string;
  rationale: string;
}

export interface ReasoningStep {
  /** 1-based, consecutive. */
  step: number;
  /** A stable machine-readable name of what was done, e.g. "rule:organism_recognised". */
  action: string;
  summary: string;
}

/**
 * A source the engine retrieved AND verified (DOI resolves, registered title matches the
 * retrieved title). Nothing else is ever a source: the engine never emits a citation it did
 * not retrieve and check.
 */
export interface VerifiedSource {
  title: string;
  /** Lower-case, without "https://doi.org/". */
  doi: string;
  /** Why it is listed, in honest terms (e.g. its rank in a search, not "supports the hypothesis"). */
  relevance: string;
  provider: "europepmc";
  /** The search query that retrieved it. */
  retrieved_by: string;
  year?: number;
  journal?: string;
  pmid?: string;
  verification: {
    doi_resolves: true;
    /** Token-set similarity of the retrieved and the registered title, 0..1. */
    title_similarity: number;
    registered_title: string;
    checked_at: string;
  };
}

/** What the offline rules engine recognised in a query (see domain/rules). */
export interface RecognisedEntities {
  organisms: string[];
  compounds: string[];
  cell_lines: string[];
  genes: string[];
  enzymes: string[];
  plasmids: string[];
  concentrations: { value: number; unit: string; text: string }[];
  durations: { value: number; unit: string; text: string }[];
}

/** A generation's full output: the engine result plus what the run/sync endpoints need. */
export interface GeneratedHypothesis {
  hypothesis: HypothesisText;
  experiment_type: ExperimentTypeName;
  /** A POST /experiments body (submit mode) that passes POST /validate. */
  intake_draft: Record<string, unknown>;
  reasoning_trace: ReasoningStep[];
  sources: VerifiedSource[];
  /** Which engine wrote it, e.g. "offline-rules@1" or "openai-compatible:<model>". */
  engine: string;
  /** True only when at least one verified source was retrieved for this query. */
  literature_grounded: boolean;
  /** Honest remarks for the reader: placeholders to edit, missing inputs, what was not done. */
  notes: string[];
}

/** Stages reported while a run executes, with their percentages. */
export const ENGINE_STAGES = {
  queued: 0,
  parsing: 10,
  entity_extraction: 30,
  classification: 50,
  literature_search: 70,
  drafting: 90,
  done: 100,
} as const;

export type EngineStage = keyof typeof ENGINE_STAGES;

/** The hypothesis text an LLM writes for a query (checked with zod by the provider). */
export interface WrittenHypothesis extends HypothesisText {
  /** The LLM's suggestion; the pipeline keeps the caller's or the rules engine's type when given. */
  experiment_type?: ExperimentTypeName;
}

export interface HypothesisWriterInput {
  query: string;
  context: string;
  experimentType: ExperimentTypeName;
  entities: RecognisedEntities;
  /** Verified sources retrieved for the query, which the writer may draw on (titles only). */
  sources: readonly VerifiedSource[];
}

/** An LLM (or any other writer) that phrases the hypothesis. Throws EngineProviderError. */
export interface HypothesisWriter {
  /** e.g. "openai-compatible:gpt-4o-mini"; recorded in the reasoning trace. */
  readonly id: string;
  write(input: HypothesisWriterInput, signal: AbortSignal): Promise<WrittenHypothesis>;
}

/** Searches the literature and returns only verified sources. Throws EngineProviderError. */
export interface LiteratureProvider {
  readonly id: string;
  findSources(
    searchQuery: string,
    options: { limit: number; signal: AbortSignal },
  ): Promise<{ sources: VerifiedSource[]; rejected: { doi: string; title: string; reason: string }[] }>;
}

/**
 * A provider failed in a way the run reports as its error (the message is shown to the
 * caller: it never holds a key, a prompt or a raw upstream body).
 */
export class EngineProviderError extends Error {
  constructor(
    readonly code:
      | "llm_unavailable"
      | "llm_invalid_output"
      | "llm_rate_limited"
      | "literature_unavailable"
      | "literature_rate_limited"
      | "timeout",
    message: string,
  ) {
    super(message);
    this.name = "EngineProviderError";
  }
}
