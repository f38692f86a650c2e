/**
 * Requests written the way other experiment marketplaces' clients write them (one per
 * experiment type, in their spellings: why_interesting, BSL1, technical_replicates,
 * statistical_requirements.test, custom steps without critical parameters, …) are accepted as
 * sent through the gateway: POST /validate valid, POST /experiments 201, stored in our spellings.
 */
import { clientIntakes } from "@petri/fixtures";
import { expect } from "vitest";
import { type ExperimentsTarget, newRequester } from "./experiments.scenarios.js";

export async function clientIntakesScenario(target: ExperimentsTarget): Promise<void> {
  const requester = await newRequester(target, "other-marketplace-client");
  for (const [type, intake] of Object.entries(clientIntakes)) {
    const validation = await requester.call("POST", "/validate", intake);
    expect(validation.status, validation.text).toBe(200);
    expect(validation.body.errors, `${type}: ${validation.text}`).toEqual([]);
    expect(validation.body.valid).toBe(true);

    const created = await requester.call("POST", "/experiments", intake);
    expect(created.status, `${type}: ${created.text}`).toBe(201);
    expect(["open", "pending_review"]).toContain(created.body.status);

    const stored = await requester.call("GET", `/experiments/${created.body.experiment_id}`);
    expect(stored.status, stored.text).toBe(200);
    expect(stored.body.experiment_type).toBe(type);
    const request = stored.body.request;
    expect(request.hypothesis).not.toHaveProperty("why_interesting");
    expect(request.compliance.bsl).toMatch(/^BSL-[12]$/);
    expect(Object.keys(request.replicates).sort()).toEqual(["biological", "technical"]);
    expect(request.acceptance_criteria.statistical_requirements ?? {}).not.toHaveProperty("test");
  }

  // statistical_requirements.test: stored as statistical_test, with one warning saying so.
  const growth = await requester.call("POST", "/validate", clientIntakes.MICROBIAL_GROWTH_MATRIX);
  expect(growth.body.warnings.filter((w: { code: string }) => w.code === "request.alias_normalised")).toEqual(
    [expect.objectContaining({ path: "acceptance_criteria.statistical_requirements.test" })],
  );
  const both = structuredClone(clientIntakes.MICROBIAL_GROWTH_MATRIX) as {
    acceptance_criteria: { statistical_requirements: Record<string, unknown> };
  };
  both.acceptance_criteria.statistical_requirements.statistical_test = "t_test";
  const conflicting = await requester.call("POST", "/experiments", both);
  expect(conflicting.status, conflicting.text).toBe(422);
  expect(conflicting.body.error.code).toBe("validation_failed");
  expect(conflicting.body.error.details.errors).toContainEqual(
    expect.objectContaining({
      field: "acceptance_criteria.statistical_requirements.test",
      code: "invalid_value",
    }),
  );
}
