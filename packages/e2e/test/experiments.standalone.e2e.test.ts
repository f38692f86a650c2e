import { describe, it } from "vitest";
import { experimentScenarioTests } from "./experiments.suite.js";
import { engineCorpusScenario, engineDraftsToCloudLabsScenario } from "./engine.scenarios.js";
import { standaloneOfBlock } from "./support/blocks.js";

describe("experiment requests, standalone mode (one process, embedded PostgreSQL, in-process bus)", () => {
  const deployment = standaloneOfBlock("petri-e2e-experiments");

  experimentScenarioTests(() => deployment.target, "ten at once");
  it("engine corpus: every query gets its experiment type and a draft that passes /validate", () =>
    engineCorpusScenario(deployment.target));
  it("engine drafts reach the cloud labs: nine in ten standard drafts are runnable as they are", () =>
    engineDraftsToCloudLabsScenario(deployment.target));
});
