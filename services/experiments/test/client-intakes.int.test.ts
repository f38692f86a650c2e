/**
 * Requests written the way other marketplaces' clients write them (one per experiment type,
 * @petri/fixtures, packages/fixtures/src/intake/client-intakes.ts) through the contract: ValidateExperiment says valid and
 * CreateExperiment stores them, in our spellings. Same scenarios on PostgreSQL and PGlite.
 */
import { ExperimentStatus } from "@petri/contracts/experiments";
import { describe, expect, it } from "vitest";
import { EXPERIMENT_TYPES } from "@petri/contracts/vocabulary";
import { clientIntakes } from "@petri/fixtures";
import { ENGINES, json, requester, experimentsOn } from "./support/harness.js";

describe.each(ENGINES)("other marketplaces' client requests on %s", (engine) => {
  const exp = experimentsOn(engine);

  for (const type of EXPERIMENT_TYPES) {
    it(`validates and creates the ${type} request as sent`, async () => {
      const me = requester();
      const requestJson = json(clientIntakes[type]);
      const validation = await exp.as(me).validateExperiment({ requestJson });
      expect(validation.errors).toEqual([]);
      expect(validation.valid).toBe(true);

      const { experiment } = await exp.as(me).createExperiment({ requestJson });
      expect(experiment!.experimentType).toBe(type);
      expect([ExperimentStatus.OPEN, ExperimentStatus.PENDING_REVIEW]).toContain(experiment!.status);
      const stored = JSON.parse(experiment!.requestJson) as Record<string, any>;
      expect(stored.hypothesis).not.toHaveProperty("why_interesting");
      expect(stored.replicates).toEqual({
        technical: expect.any(Number),
        biological: expect.any(Number),
      });
      expect(stored.acceptance_criteria.statistical_requirements ?? {}).not.toHaveProperty("test");
    });
  }

  it("stores statistical_requirements.test as statistical_test, and tells the client", async () => {
    const requestJson = json(clientIntakes.MICROBIAL_GROWTH_MATRIX);
    const { experiment, warnings } = await exp.as(requester()).createExperiment({ requestJson });
    const stored = JSON.parse(experiment!.requestJson) as Record<string, any>;
    expect(stored.acceptance_criteria.statistical_requirements).toEqual({
      significance_level: 0.05,
      statistical_test: "anova",
    });
    expect(warnings.filter((w) => w.code === "request.alias_normalised").map((w) => w.path)).toEqual([
      "acceptance_criteria.statistical_requirements.test",
    ]);
  });
});
