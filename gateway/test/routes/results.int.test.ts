import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CSV, SUBMISSION } from "../support/lab-submission.js";
import { resultsHelpers } from "../support/real-results.js";
import { eventually } from "../support/real-services.js";
import { describeWithSharedAccounts } from "../support/real-services-shared.js";
import { bodyOf } from "../support/requests.js";
import { resultsRecordJson, UNRESOLVED_DISPUTE } from "../support/results-record.js";

/** How long the experiments service's signed file URLs stay valid (FILE_URL_TTL_SECONDS). */
const URL_TTL_SECONDS = 900;

describeWithSharedAccounts(
  "results routes on the real services",
  { start: "2026-03-02T10:00:00.000Z", source: "198.51.100.120", labName: "Lab One" },
  (scope) => {
    const { call, clock, otherKey, asStaff, lab } = scope;
    const { asLab, started, submitted } = resultsHelpers(scope);
    const urlsExpireAt = () => new Date(clock.now().getTime() + URL_TTL_SECONDS * 1000).toISOString();

    describe("GET /experiments/{id}/results", () => {
      it("gives the uploaded record as submitted, with signed file URLs, plus urls_expire_at", async () => {
        const { experiment_id: id } = await submitted();
        const submittedAt = clock.now().toISOString();
        const response = await call("GET", `/experiments/${id}/results`);
        expect(response.status).toBe(200);
        const body = await bodyOf(response);
        expect(body).toEqual({
          experiment_id: id,
          status: "pending_approval",
          hypothesis_supported: true,
          confidence_level: "high",
          summary: SUBMISSION.summary,
          structured_data: { measurements: SUBMISSION.measurements, statistics: SUBMISSION.statistics },
          raw_data_files: [
            {
              name: "plate1.csv",
              format: "csv",
              url: expect.stringMatching(/^\/files\/fil_\w+\?expires=\d+&signature=[\w-]+$/),
              checksum_sha256: createHash("sha256").update(CSV).digest("hex"),
              size_bytes: CSV.length,
            },
          ],
          documentation: { photos: [], lab_notebook_url: null },
          operator_notes: SUBMISSION.notes,
          submitted_at: submittedAt,
          urls_expire_at: urlsExpireAt(),
        });
        // The order of the typed record (D342), the expiry last.
        expect(Object.keys(body)).toEqual([...Object.keys(resultsRecordJson), "urls_expire_at"]);
        // The lab reads the same record.
        expect(await bodyOf(await asLab("GET", `/experiments/${id}/results`))).toEqual(body);
      });

      it("a JSON submission without files gives a record without files; absent values are null", async () => {
        const { experiment_id: id } = await started();
        const { raw_data_uploads: _files, notes: _notes, ...submission } = SUBMISSION;
        const answer = await asLab("POST", `/operator/jobs/${id}/submit`, {
          ...submission,
          summary: "no inhibition",
        });
        expect(answer.status, await answer.clone().text()).toBe(200);
        const body = await bodyOf(await call("GET", `/experiments/${id}/results`));
        expect(body).toMatchObject({
          experiment_id: id,
          summary: "no inhibition",
          structured_data: { measurements: SUBMISSION.measurements },
          raw_data_files: [],
          operator_notes: null,
        });
      });

      it("is 409 invalid_state before results exist, and 404 for another account's experiment", async () => {
        const { experiment_id: running } = await started();
        const early = await call("GET", `/experiments/${running}/results`);
        expect(early.status).toBe(409);
        expect((await bodyOf(early)).error).toMatchObject({
          code: "invalid_state",
          details: {
            status: "in_progress",
            allowed_from: ["pending_approval", "completed", "disputed", "resolved"],
          },
        });
        const { experiment_id: id } = await submitted();
        const hidden = await call("GET", `/experiments/${id}/results`, undefined, otherKey());
        expect(hidden.status).toBe(404);
        expect((await bodyOf(hidden)).error.code).toBe("not_found");
      });
    });

    describe("POST /experiments/{id}/approve", () => {
      it("approves with a rating and feedback: completed, payment released; again is 409", async () => {
        const { experiment_id: id } = await submitted();
        const response = await call("POST", `/experiments/${id}/approve`, {
          rating: 5,
          feedback: "clean work",
        });
        expect(response.status).toBe(200);
        expect(await bodyOf(response)).toEqual({
          experiment_id: id,
          status: "completed",
          payment_released: true,
        });
        expect((await bodyOf(await call("GET", `/experiments/${id}`))).approval).toEqual({
          rating: 5,
          feedback: "clean work",
          approved_at: clock.now().toISOString(),
        });
        const again = await call("POST", `/experiments/${id}/approve`);
        expect(again.status).toBe(409);
        expect((await bodyOf(again)).error.details).toEqual({
          status: "completed",
          allowed_from: ["pending_approval"],
        });
      });

      it("the body is optional; rating is an integer 1-5 and feedback at most 2000 characters", async () => {
        const { experiment_id: id } = await submitted();
        for (const body of [
          { rating: 0 },
          { rating: 6 },
          { rating: 4.5 },
          { rating: "5" },
          { feedback: "x".repeat(2001) },
          { stars: 5 },
        ]) {
          const response = await call("POST", `/experiments/${id}/approve`, body);
          expect(response.status, JSON.stringify(body)).toBe(422);
          expect((await bodyOf(response)).error.details.errors[0].path).toBe(Object.keys(body)[0]);
        }
        expect((await bodyOf(await call("GET", `/experiments/${id}`))).status).toBe("pending_approval");
        expect((await call("POST", `/experiments/${id}/approve`)).status).toBe(200);
        expect((await bodyOf(await call("GET", `/experiments/${id}`))).approval).toMatchObject({
          rating: null,
          feedback: null,
        });
      });

      it("staff may read but not approve for the requester (403); another account gets 404", async () => {
        const { experiment_id: id } = await submitted();
        expect((await asStaff("GET", `/experiments/${id}/results`)).status).toBe(200);
        const refused = await asStaff("POST", `/experiments/${id}/approve`, {});
        expect(refused.status).toBe(403);
        expect((await bodyOf(refused)).error.code).toBe("forbidden");
        expect((await call("POST", `/experiments/${id}/approve`, {}, otherKey())).status).toBe(404);
        expect((await bodyOf(await call("GET", `/experiments/${id}`))).status).toBe("pending_approval");
      });
    });

    describe("POST /experiments/{id}/dispute", () => {
      it("201 {dispute_id, experiment_id, status}; the experiment then shows the dispute", async () => {
        const { experiment_id: id } = await submitted();
        const response = await call("POST", `/experiments/${id}/dispute`, {
          reason: "results_incorrect",
          description: "the positive control failed",
          evidence_urls: ["https://example.org/plate.png"],
        });
        expect(response.status).toBe(201);
        const body = await bodyOf(response);
        expect(body).toEqual({
          dispute_id: expect.stringMatching(/^dsp_/),
          experiment_id: id,
          status: "disputed",
        });
        const details = await bodyOf(await call("GET", `/experiments/${id}`));
        expect(details.status).toBe("disputed");
        expect(details.dispute).toEqual({
          dispute_id: body.dispute_id,
          experiment_id: id,
          reason: "results_incorrect",
          description: "the positive control failed",
          evidence_urls: ["https://example.org/plate.png"],
          ...UNRESOLVED_DISPUTE,
          raised_from: "pending_approval",
          created_at: clock.now().toISOString(),
        });
      });

      it("checks reason, description and evidence URLs; nothing is disputed", async () => {
        const { experiment_id: id } = await submitted();
        const cases: Array<[unknown, string]> = [
          [{ reason: "too_expensive", description: "x" }, "reason"],
          [{ reason: "other" }, "description"],
          [{ reason: "other", description: "  " }, "description"],
          [{ reason: "other", description: "x", evidence_urls: ["not a url"] }, "evidence_urls.0"],
          [{ reason: "other", description: "x", evidence_urls: ["javascript:alert(1)"] }, "evidence_urls.0"],
          [{ reason: "other", description: "x", evidence_urls: "https://example.org" }, "evidence_urls"],
        ];
        for (const [body, path] of cases) {
          const response = await call("POST", `/experiments/${id}/dispute`, body);
          expect(response.status, JSON.stringify(body)).toBe(422);
          expect((await bodyOf(response)).error.details.errors[0].path).toBe(path);
        }
        expect(await bodyOf(await call("GET", `/experiments/${id}`))).toMatchObject({
          status: "pending_approval",
          dispute: null,
        });
      });
    });

    describe("the experiment record through the marketplace loop", () => {
      it("carries operator, issues, payment, approval, times and the links that apply", async () => {
        const { experiment_id: id, estimated_cost_usd: held } = await submitted();
        const at = clock.now().toISOString();
        const pending = await eventually(async () => {
          const details = await bodyOf(await call("GET", `/experiments/${id}`));
          return details.payment?.status === "held" ? details : undefined;
        }, "the escrow of the experiment");
        expect(pending).toMatchObject({
          status: "pending_approval",
          payment: { status: "held", held_usd: held, released_usd: 0, refunded_usd: 0, still_held_usd: held },
          operator: {
            operator_id: lab().operatorId,
            lab_name: "Lab One",
            claimed_at: at,
            estimated_start_date: "2026-03-09",
          },
          issues: [
            {
              issue_id: expect.stringMatching(/^iss_/),
              description: "one well dried out",
              severity: "low",
              reported_at: at,
            },
          ],
          approval: null,
          started_at: at,
          results_submitted_at: at,
          completed_at: null,
        });
        expect(pending.links).toEqual({
          self: `/experiments/${id}`,
          results: `/experiments/${id}/results`,
          cancel: `/experiments/${id}`,
          approve: `/experiments/${id}/approve`,
          dispute: `/experiments/${id}/dispute`,
        });

        await clock.advance(3_600_000);
        expect((await call("POST", `/experiments/${id}/approve`, { rating: 4 })).status).toBe(200);
        const completed = await bodyOf(await call("GET", `/experiments/${id}`));
        expect(completed.approval).toEqual({
          rating: 4,
          feedback: null,
          approved_at: clock.now().toISOString(),
        });
        expect(completed.completed_at).toBe(clock.now().toISOString());
        expect(Object.keys(completed.links)).toEqual(["self", "results", "cancel", "dispute"]);

        const list = await bodyOf(await call("GET", "/experiments?status=completed"));
        const listed = list.experiments.find((e: { experiment_id: string }) => e.experiment_id === id);
        expect(Object.keys(listed.links)).toEqual(["self", "results", "cancel", "dispute"]);
      });
    });
  },
);
