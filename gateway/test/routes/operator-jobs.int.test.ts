import { validRequests } from "@petri/fixtures";
import { describe, expect, it } from "vitest";
import { marketplaceHelpers } from "../support/real-marketplace.js";
import { describeOnRealServices, eventually } from "../support/real-services.js";
import { bodyOf } from "../support/requests.js";
import { SUBMISSION } from "../support/lab-submission.js";

const CONFIRMED = { equipment_confirmation: true, authorization_confirmation: true };
/** A MIC request with a budget to the cent and, when given, a hard deadline. */
const micRequest = (budgetUsd: number, deadline?: string) => ({
  ...validRequests.MIC_MBC_ASSAY,
  constraints: { budget_max_usd: budgetUsd },
  ...(deadline && { turnaround_budget: { hard_deadline: deadline } }),
});

describeOnRealServices(
  "the operator's job routes on the real services",
  { start: "2026-03-02T10:00:00.000Z", source: "198.51.100.110" },
  (scope) => {
    const { call, clock, otherKey } = scope;
    const { activeLab, claim } = marketplaceHelpers(scope);

    /** An open experiment of the other account's, posted now. */
    async function openExperiment(budgetUsd = 300, deadline?: string) {
      const posted = await call("POST", "/experiments", micRequest(budgetUsd, deadline), otherKey());
      const body = await bodyOf(posted);
      expect(posted.status, JSON.stringify(body)).toBe(201);
      return body.experiment_id as string;
    }

    /** An open experiment `lab` has claimed (and maybe started). */
    async function claimed(lab: { apiKey: string }, start = false) {
      const id = await openExperiment();
      expect((await claim(lab.apiKey, id)).status).toBe(200);
      if (start)
        expect((await call("POST", `/operator/jobs/${id}/start`, undefined, lab.apiKey)).status).toBe(200);
      return id;
    }

    describe("GET /operator/jobs", () => {
      it("lists the feed in USD with match scores, paged", async () => {
        const lab = await activeLab("Lab One");
        const postedAt = clock.now().toISOString();
        const first = await openExperiment(812.34, "2026-06-01");
        const second = await openExperiment();
        const page = await eventually(async () => {
          const body = await bodyOf(await call("GET", "/operator/jobs?limit=1", undefined, lab.apiKey));
          return body.pagination?.total === 2 ? body : undefined;
        }, "both jobs in the feed");
        expect(page.pagination).toEqual({ total: 2, cursor: expect.any(String), has_more: true });
        const next = await bodyOf(
          await call(
            "GET",
            `/operator/jobs?limit=1&cursor=${encodeURIComponent(page.pagination.cursor)}`,
            undefined,
            lab.apiKey,
          ),
        );
        expect(next.pagination.has_more).toBe(false);
        const jobs = [...page.jobs, ...next.jobs];
        expect(jobs.map((j: any) => j.experiment_id).sort()).toEqual([first, second].sort());
        expect(jobs.find((j: any) => j.experiment_id === first)).toEqual({
          experiment_id: first,
          title: validRequests.MIC_MBC_ASSAY.title,
          category: "microbiology",
          budget_usd: 812.34,
          deadline: "2026-06-01",
          bsl_level: "BSL-1",
          equipment_required: expect.any(Array),
          posted_at: postedAt,
          experiment_type: "MIC_MBC_ASSAY",
          turnaround_priority: "standard",
          private: false,
          match_score: expect.any(Number),
          match: {
            capability: expect.any(Number),
            turnaround: expect.any(Number),
            cost: expect.any(Number),
            quality: expect.any(Number),
          },
        });
        // No hard deadline: null, not "".
        expect(jobs.find((j: any) => j.experiment_id === second)).toMatchObject({
          budget_usd: 300,
          deadline: null,
        });
      });

      it("limit is bounded; a non-operator gets the service's 403; credentials are needed", async () => {
        const lab = await activeLab("Lab Bounds");
        for (const query of ["limit=0", "limit=101", "limit=x", "cursor="]) {
          const response = await call("GET", `/operator/jobs?${query}`, undefined, lab.apiKey);
          expect(response.status, query).toBe(422);
          expect((await bodyOf(response)).error.details.errors[0].path).toBe(query.split("=")[0]);
        }
        const refused = await call("GET", "/operator/jobs");
        expect(refused.status).toBe(403);
        expect((await bodyOf(refused)).error.code).toBe("forbidden");
        expect((await call("GET", "/operator/jobs", undefined, null)).status).toBe(401);
      });
    });

    describe("POST /operator/jobs/{id}/claim", () => {
      it("claims with both confirmations and answers {experiment_id, claimed_at, deadline}", async () => {
        const lab = await activeLab("Lab Claim");
        const id = await openExperiment();
        const now = clock.now().toISOString();
        const response = await claim(lab.apiKey, id, {
          estimated_start_date: "2026-03-09",
          notes: "we start Monday",
        });
        expect(response.status).toBe(200);
        const body = await bodyOf(response);
        expect(body).toEqual({ experiment_id: id, claimed_at: now, deadline: expect.any(String) });
        expect(Date.parse(body.deadline)).toBeGreaterThan(Date.parse(now));
        const seen = await bodyOf(await call("GET", `/experiments/${id}`, undefined, otherKey()));
        expect(seen).toMatchObject({
          status: "claimed",
          operator: { lab_name: "Lab Claim", claimed_at: now },
        });
      });

      it("the schema needs both booleans; a false one goes to the service, which refuses it with 422", async () => {
        const lab = await activeLab("Lab Schema");
        const id = await openExperiment();
        const cases: Array<[unknown, string, string]> = [
          [{}, "equipment_confirmation", "missing_required"],
          [{ equipment_confirmation: true }, "authorization_confirmation", "missing_required"],
          [{ ...CONFIRMED, equipment_confirmation: "yes" }, "equipment_confirmation", "invalid_value"],
          [{ ...CONFIRMED, estimated_start_date: "2026-02-30" }, "estimated_start_date", "invalid_value"],
          [{ ...CONFIRMED, estimated_start_date: "next week" }, "estimated_start_date", "invalid_value"],
          [{ ...CONFIRMED, notes: "x".repeat(2001) }, "notes", "invalid_value"],
          [{ ...CONFIRMED, priority: "high" }, "priority", "invalid_value"],
        ];
        // Once the experiments service knows the lab (the claim helper waits for it), nothing was claimed.
        const refused = await eventually(async () => {
          const answer = await call(
            "POST",
            `/operator/jobs/${id}/claim`,
            { equipment_confirmation: false, authorization_confirmation: true },
            lab.apiKey,
          );
          return answer.status === 403 ? undefined : answer;
        }, "the lab known to the experiments service");
        expect(refused.status).toBe(422);
        expect((await bodyOf(refused)).error).toMatchObject({
          code: "validation_failed",
          details: {
            errors: [
              {
                field: "equipment_confirmation",
                path: "equipment_confirmation",
                code: "invalid_value",
                message: expect.stringContaining("must be true"),
              },
            ],
          },
        });
        for (const [body, path, code] of cases) {
          const response = await call("POST", `/operator/jobs/${id}/claim`, body, lab.apiKey);
          expect(response.status, JSON.stringify(body)).toBe(422);
          expect((await bodyOf(response)).error.details.errors[0]).toMatchObject({ path, field: path, code });
        }
        const open = await bodyOf(await call("GET", `/experiments/${id}`, undefined, otherKey()));
        expect(open.status).toBe("open");
      });

      it("a lost race is 409 experiment_already_claimed; a non-operator 403; an unknown job 404", async () => {
        const lab = await activeLab("Lab Winner");
        const rival = await activeLab("Lab Rival");
        const id = await claimed(lab);
        const lost = await claim(rival.apiKey, id);
        expect(lost.status).toBe(409);
        expect((await bodyOf(lost)).error.code).toBe("experiment_already_claimed");

        const other = await openExperiment();
        const forbidden = await call("POST", `/operator/jobs/${other}/claim`, CONFIRMED);
        expect(forbidden.status).toBe(403);
        expect((await bodyOf(forbidden)).error.code).toBe("forbidden");
        const unknown = await call("POST", "/operator/jobs/exp_nope/claim", CONFIRMED, lab.apiKey);
        expect(unknown.status).toBe(404);
        expect((await bodyOf(unknown)).error.code).toBe("not_found");
      });
    });

    describe("POST /operator/jobs/{id}/start", () => {
      it("starts a claimed job; from another status 409 invalid_state; another lab's job is 404", async () => {
        const lab = await activeLab("Lab Start");
        const id = await claimed(lab);
        await clock.advance(60_000);
        const response = await call("POST", `/operator/jobs/${id}/start`, undefined, lab.apiKey);
        expect(response.status).toBe(200);
        expect(await bodyOf(response)).toEqual({
          experiment_id: id,
          status: "in_progress",
          started_at: clock.now().toISOString(),
        });
        const again = await call("POST", `/operator/jobs/${id}/start`, undefined, lab.apiKey);
        expect(again.status).toBe(409);
        expect((await bodyOf(again)).error).toMatchObject({
          code: "invalid_state",
          details: { status: "in_progress", allowed_from: ["claimed"] },
        });

        const rival = await activeLab("Lab Rival Start");
        const theirs = await claimed(rival);
        expect((await call("POST", `/operator/jobs/${theirs}/start`, undefined, lab.apiKey)).status).toBe(
          404,
        );
      });
    });

    describe("POST /operator/jobs/{id}/issues", () => {
      it("201 with the issue; description and severity are checked first", async () => {
        const lab = await activeLab("Lab Issues");
        const id = await claimed(lab, true);
        const response = await call(
          "POST",
          `/operator/jobs/${id}/issues`,
          { description: "  plate 2 contaminated ", severity: "high" },
          lab.apiKey,
        );
        expect(response.status).toBe(201);
        expect(await bodyOf(response)).toEqual({
          issue_id: expect.stringMatching(/^iss_/),
          experiment_id: id,
          description: "plate 2 contaminated",
          severity: "high",
          reported_at: clock.now().toISOString(),
        });
        for (const body of [
          { description: "x", severity: "catastrophic" },
          { description: "   ", severity: "low" },
          { severity: "low" },
          { description: "x".repeat(5001), severity: "low" },
        ]) {
          const refused = await call("POST", `/operator/jobs/${id}/issues`, body, lab.apiKey);
          expect(refused.status, JSON.stringify(body)).toBe(422);
          expect((await bodyOf(refused)).error.code).toBe("validation_failed");
        }
        const seen = await bodyOf(await call("GET", `/experiments/${id}`, undefined, otherKey()));
        expect(seen.issues).toHaveLength(1);
      });
    });

    describe("POST /operator/jobs/{id}/submit", () => {
      it("answers pending_approval; the requester then reads the results", async () => {
        const lab = await activeLab("Lab Submit");
        const id = await claimed(lab, true);
        await clock.advance(60_000);
        const response = await call("POST", `/operator/jobs/${id}/submit`, SUBMISSION, lab.apiKey);
        expect(response.status).toBe(200);
        expect(await bodyOf(response)).toEqual({
          experiment_id: id,
          status: "pending_approval",
          submitted_at: clock.now().toISOString(),
        });
        const results = await call("GET", `/experiments/${id}/results`, undefined, otherKey());
        expect(results.status).toBe(200);
        expect(await bodyOf(results)).toMatchObject({
          summary: SUBMISSION.summary,
          hypothesis_supported: true,
        });
      });
    });
  },
);
