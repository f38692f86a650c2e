import type {
  HypothesisWriterInput,
  RecognisedEntities,
  VerifiedSource,
} from "../../src/domain/generation.js";

/** Writer inputs for tests: a synthetic question and a synthetic verified source (not a real citation). */
export const NO_ENTITIES: RecognisedEntities = {
  organisms: [],
  compounds: [],
  cell_lines: [],
  genes: [],
  enzymes: [],
  plasmids: [],
  concentrations: [],
  durations: [],
};

export const FIXTURE_SOURCE: VerifiedSource = {
  title: "Synthetic fixture study of test compound PT-0001 in a placeholder organism (Petri test data)",
  doi: "10.5555/petri-test.0001",
  relevance: 'Europe PMC search result 1 for "PT-0001"',
  provider: "europepmc",
  retrieved_by: "PT-0001",
  year: 2001,
  journal: "Petri Test Fixtures",
  verification: {
    doi_resolves: true,
    title_similarity: 1,
    registered_title:
      "Synthetic fixture study of test compound PT-0001 in a placeholder organism (Petri test data)",
    checked_at: "2026-01-01T00:00:00.000Z",
  },
};

export function writerInput(overrides: Partial<HypothesisWriterInput> = {}): HypothesisWriterInput {
  return {
    query: "Does synthetic test compound PT-0001 inhibit the placeholder organism?",
    context: "",
    experimentType: "MIC_MBC_ASSAY",
    entities: { ...NO_ENTITIES, compounds: ["PT-0001"], organisms: ["placeholder organism"] },
    sources: [],
    ...overrides,
  };
}
