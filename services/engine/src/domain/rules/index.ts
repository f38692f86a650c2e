/**
 * The offline rules engine of the hypothesis-generation engine ("offline-rules@1"): a pure,
 * deterministic drafter that needs no network and never cites literature.
 */
export {
  MAX_CONTEXT_CHARS,
  MAX_QUERY_CHARS,
  RULES_ENGINE_ID,
  draftWithHypothesis,
  runRulesEngine,
  type RulesEngineOutput,
} from "./engine.js";
export { TYPE_DEFAULTS } from "./intake-draft.js";
export { CUES, MIN_LEAD, MIN_SCORE, classify, type Classification } from "./classify.js";
export { extractEntities, toRecognisedEntities, type Extraction } from "./extract.js";
export { normaliseText } from "./normalise.js";
