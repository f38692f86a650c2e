import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Failpoints, createLogger, systemClock } from "@petri/service-kit";
import { loadOrCreateIdentitySecrets } from "@petri/identity";
import { type Standalone, startStandalone } from "@petri/standalone";
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

const staff = { email: "staff@petri.test", password: "staff password for e2e" };

describe("experiment requests, standalone mode (one process, PGlite, in-process bus)", () => {
  let petri: Standalone;
  let dataDir: string;
  let target: ExperimentsTarget;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "petri-e2e-experiments-"));
    petri = await startStandalone({
      dataDir,
      identity: { ...(await loadOrCreateIdentitySecrets(dataDir)), staff },
      port: 0,
      host: "127.0.0.1",
      logger: createLogger({ service: "e2e", level: "warn" }),
      clock: systemClock,
      failpoints: new Failpoints(),
    });
    target = { baseUrls: [petri.url], staff };
  });

  afterAll(async () => {
    await petri?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

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
});
