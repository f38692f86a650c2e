/**
 * The experiment-request tests both deployment modes run: registered in the calling describe
 * block against its target, so each mode's file keeps only its set-up and its own tests.
 */
import { it } from "vitest";
import { cloudLabsScenario } from "./cloud-labs.scenarios.js";
import { engineToExperimentScenario } from "./engine.scenarios.js";
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
import { hypothesisLibraryScenario } from "./hypotheses.scenarios.js";

/**
 * `target` is read when a test runs (the deployment starts in beforeAll); `tenAtOnce` says how
 * the idempotency test's ten concurrent requests reach the deployment.
 */
export function experimentScenarioTests(target: () => ExperimentsTarget, tenAtOnce: string): void {
  it("validate: valid, invalid with paths, controlled substance and BSL-3 flagged", () =>
    validateScenario(target()));
  it("estimate with a partial body; templates list, filters and one record", () =>
    estimateAndTemplatesScenario(target()));
  it("create -> get -> list with a cursor -> patch -> cancel with a full refund", () =>
    requesterLifecycleScenario(target()));
  it("draft -> submit (incomplete: 422 with paths; complete: open)", () => draftScenario(target()));
  it("pending_review -> staff approve, staff reject with a refund", () => staffReviewScenario(target()));
  it("protocol design: proposal -> changes -> new proposal -> accept -> open", () =>
    protocolDesignScenario(target()));
  it(`Idempotency-Key: byte-identical replay, another body 422, ${tenAtOnce} make one experiment`, () =>
    idempotencyScenario(target()));
  it("another account's experiment is 404 for read, patch and delete", () => bolaScenario(target()));
  it("hypothesis library: save, list and search, edit a draft, archive; owner only", () =>
    hypothesisLibraryScenario(target()));
  it("engine run -> poll -> edit draft -> save hypothesis -> to-experiment (idempotent) -> USED", () =>
    engineToExperimentScenario(target()));
  it("cloud labs: providers, interpret, translate (SLL, Autoprotocol), validate, submission to completed, cancel", () =>
    cloudLabsScenario(target()));
}
