import { afterAll, beforeAll, describe, it } from "vitest";
import {
  type ExperimentsTarget,
  bolaScenario,
  draftScenario,
  estimateAndTemplatesScenario,
  idempotencyScenario,
  protocolDesignScenario,
  requesterLifecycleScenario,
  staffReviewScenario,
  validateScenario,
} from "./experiments.scenarios.js";
import {
  engineCorpusScenario,
  engineDraftsToCloudLabsScenario,
  engineToExperimentScenario,
} from "./engine.scenarios.js";
import { hypothesisLibraryScenario } from "./hypotheses.scenarios.js";
import { cloudLabsScenario } from "./cloud-labs.scenarios.js";
import { STAFF, startStandaloneHost } from "./support/hosts.js";

describe("experiment requests, standalone mode (one process, embedded PostgreSQL, in-process bus)", () => {
  let host: Awaited<ReturnType<typeof startStandaloneHost>>;
  let target: ExperimentsTarget;

  beforeAll(async () => {
    host = await startStandaloneHost("petri-e2e-experiments");
    target = { baseUrls: [host.petri.url], staff: STAFF };
  });

  afterAll(() => host?.stop());

  it("validate: valid, invalid with paths, controlled substance and BSL-3 flagged", () =>
    validateScenario(target));
  it("estimate with a partial body; templates list, filters and one record", () =>
    estimateAndTemplatesScenario(target));
  it("create -> get -> list with a cursor -> patch -> cancel with a full refund", () =>
    requesterLifecycleScenario(target));
  it("draft -> submit (incomplete: 422 with paths; complete: open)", () => draftScenario(target));
  it("pending_review -> staff approve, staff reject with a refund", () => staffReviewScenario(target));
  it("protocol design: proposal -> changes -> new proposal -> accept -> open", () =>
    protocolDesignScenario(target));
  it("Idempotency-Key: byte-identical replay, another body 422, ten at once make one experiment", () =>
    idempotencyScenario(target));
  it("another account's experiment is 404 for read, patch and delete", () => bolaScenario(target));
  it("hypothesis library: save, list and search, edit a draft, archive; owner only", () =>
    hypothesisLibraryScenario(target));
  it("engine run -> poll -> edit draft -> save hypothesis -> to-experiment (idempotent) -> USED", () =>
    engineToExperimentScenario(target));
  it("cloud labs: providers, interpret, translate (SLL, Autoprotocol), validate, submission to completed, cancel", () =>
    cloudLabsScenario(target));
  it("engine corpus: every query gets its experiment type and a draft that passes /validate", () =>
    engineCorpusScenario(target));
  it("engine drafts reach the cloud labs: nine in ten standard drafts are runnable as they are", () =>
    engineDraftsToCloudLabsScenario(target));
});
