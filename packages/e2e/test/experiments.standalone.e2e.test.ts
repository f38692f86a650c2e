import { afterAll, beforeAll, describe, it } from "vitest";
import type { ExperimentsTarget } from "./experiments.scenarios.js";
import { experimentScenarioTests } from "./experiments.suite.js";
import { engineCorpusScenario, engineDraftsToCloudLabsScenario } from "./engine.scenarios.js";
import { STAFF, startStandaloneHost } from "./support/hosts.js";

describe("experiment requests, standalone mode (one process, embedded PostgreSQL, in-process bus)", () => {
  let host: Awaited<ReturnType<typeof startStandaloneHost>>;
  let target: ExperimentsTarget;

  beforeAll(async () => {
    host = await startStandaloneHost("petri-e2e-experiments");
    target = { baseUrls: [host.petri.url], staff: STAFF };
  });

  afterAll(() => host?.stop());

  experimentScenarioTests(() => target, "ten at once");
  it("engine corpus: every query gets its experiment type and a draft that passes /validate", () =>
    engineCorpusScenario(target));
  it("engine drafts reach the cloud labs: nine in ten standard drafts are runnable as they are", () =>
    engineDraftsToCloudLabsScenario(target));
});
