import { describe, expect, it } from "vitest";
import { describeOnRealServices } from "../support/real-services.js";
import { bodyOf } from "../support/requests.js";

const finding = { path: expect.any(String), code: expect.any(String), message: expect.any(String) };

describeOnRealServices(
  "validation and estimate routes on the real experiments service",
  { start: "2026-03-02T10:00:00.000Z", source: "198.51.100.61" },
  ({ call, otherKey }) => {
    describe("POST /validate", () => {
      it("takes any JSON object and answers 200 with every finding: errors by path, warnings, safety flags", async () => {
        const response = await call("POST", "/validate", {
          experiment_type: 42,
          hypothesis: "not an object",
          extra: [1],
        });
        expect(response.status).toBe(200);
        const report = await bodyOf(response);
        expect(Object.keys(report)).toEqual(["valid", "errors", "warnings", "safety_flags"]);
        expect(report.valid).toBe(false);
        for (const error of report.errors) expect(error).toEqual(finding);
        expect(report.errors.map((error: { path: string }) => error.path)).toEqual(
          expect.arrayContaining(["extra", "experiment_type", "hypothesis", "title"]),
        );
        expect(report.errors.find((error: { path: string }) => error.path === "title").code).toBe(
          "missing_required",
        );
        expect(report.warnings[0]).toMatchObject({ ...finding, suggestion: expect.any(String) });
        expect(report.safety_flags).toEqual([]);
      });

      it("refuses a body that is not a JSON object (422 validation_failed)", async () => {
        const response = await call("POST", "/validate", "[]");
        expect(response.status).toBe(422);
        expect((await bodyOf(response)).error.code).toBe("validation_failed");
      });

      it("answers any account alike", async () => {
        const mine = await bodyOf(await call("POST", "/validate", { title: "ok" }));
        const theirs = await bodyOf(await call("POST", "/validate", { title: "ok" }, otherKey()));
        expect(theirs).toEqual(mine);
        expect(mine.errors[0]).toMatchObject({ path: "title", code: "invalid_value" });
      });
    });

    describe("POST /validate/hypothesis", () => {
      it("checks the statement alone (the other fields may be absent) and answers valid, errors, suggestions", async () => {
        const response = await call("POST", "/validate/hypothesis", {
          statement: "X raises Y by 20% in Z cells",
        });
        expect(response.status).toBe(200);
        const report = await bodyOf(response);
        expect(Object.keys(report)).toEqual(["valid", "errors", "suggestions"]);
        expect(report).toMatchObject({ valid: true, errors: [] });
        // No null hypothesis was given: one of the suggestions asks for it.
        expect(report.suggestions.some((text: string) => /null hypothesis/i.test(text))).toBe(true);
      });

      it("is strict about its fields", async () => {
        const response = await call("POST", "/validate/hypothesis", { statement: "s", why: "no" });
        expect(response.status).toBe(422);
        expect((await bodyOf(response)).error.details.errors[0]).toMatchObject({ path: "why", field: "why" });
      });
    });

    describe("POST /estimate", () => {
      it("prices a partial body in USD, with the documented keys", async () => {
        const response = await call("POST", "/estimate", { experiment_type: "QPCR_EXPRESSION" });
        expect(response.status).toBe(200);
        const estimate = await bodyOf(response);
        expect(Object.keys(estimate)).toEqual([
          "estimated_cost_usd",
          "estimated_turnaround_days",
          "cost_breakdown",
          "operator_availability",
        ]);
        const { low, typical, high } = estimate.estimated_cost_usd;
        expect(low).toBeLessThanOrEqual(typical);
        expect(typical).toBeLessThanOrEqual(high);
        expect(estimate.estimated_turnaround_days.expedited).toBeLessThan(
          estimate.estimated_turnaround_days.standard,
        );
        expect(Object.keys(estimate.cost_breakdown)).toEqual([
          "materials",
          "labor",
          "equipment",
          "platform_fee",
          "privacy_premium",
        ]);
        // No verified lab exists in this world.
        expect(estimate.operator_availability).toBe("none");
      });

      it("refuses a body that is not a JSON object", async () => {
        expect((await call("POST", "/estimate", "[]")).status).toBe(422);
      });
    });
  },
);
