/** The offline rules engine (domain/rules) as the pipeline's always-on provider. */
import { draftWithHypothesis, runRulesEngine } from "../domain/rules/index.js";
import type { EngineProviders } from "./run-pipeline.js";

export const offlineRulesProviders: Pick<EngineProviders, "rules" | "withHypothesis"> = {
  rules: (request) => runRulesEngine(request),
  withHypothesis: (draft, hypothesis) => draftWithHypothesis(draft, hypothesis),
};
