import { describe, expect, it } from "vitest";
import { resultsHelpers } from "../support/real-results.js";
import { describeWithSharedAccounts } from "../support/real-services-shared.js";
import { bodyOf } from "../support/requests.js";
import { evaluationJson, UNRESOLVED_DISPUTE } from "../support/results-record.js";

describeWithSharedAccounts(
  "staff dispute routes on the real services",
  { start: "2026-03-02T10:00:00.000Z", source: "198.51.100.190", labName: "Lab One" },
  (scope) => {
    const { call, clock, account, lab, asStaff } = scope;
    const { submitted } = resultsHelpers(scope);

    /** An experiment of the shared requester with results and an open dispute; the stake in USD. */
    async function disputed() {
      const { experiment_id: experimentId } = await submitted();
      const raised = await call("POST", `/experiments/${experimentId}/dispute`, {
        reason: "results_incorrect",
        description: "the positive control failed",
      });
      expect(raised.status).toBe(201);
      const { dispute_id: disputeId } = await bodyOf(raised);
      const stake = (await bodyOf(await call("GET", `/experiments/${experimentId}`)))
        .hold_amount_usd as number;
      return { experimentId, disputeId, stake };
    }

    const staffAccountId = async () => (await bodyOf(await asStaff("GET", "/auth/me"))).account.id as string;
    const resolve = (disputeId: string, body: object) =>
      asStaff("POST", `/admin/disputes/${disputeId}/resolve`, body);
    const disputeOf = async (disputeId: string) =>
      (await bodyOf(await asStaff("GET", `/admin/disputes/${disputeId}`))).dispute;

    it("are staff only: the requester gets 403 forbidden, and the dispute stays open", async () => {
      const { disputeId } = await disputed();
      for (const [method, path, body] of [
        ["GET", "/admin/disputes"],
        ["GET", `/admin/disputes/${disputeId}`],
        ["POST", `/admin/disputes/${disputeId}/resolve`, { outcome: "requester" }],
      ] as const) {
        const response = await call(method, path, body);
        expect(response.status, path).toBe(403);
        expect((await bodyOf(response)).error.code).toBe("forbidden");
      }
      expect((await disputeOf(disputeId)).status).toBe("open");
    });

    it("GET /admin/disputes lists them by status with the staff fields, paged", async () => {
      const counted = async (query: string) =>
        (await bodyOf(await asStaff("GET", `/admin/disputes?include_total=true&${query}`))).pagination.total;
      const [openBefore, allBefore] = [await counted("status=open"), await counted("limit=100")];
      const first = await disputed();
      const second = await disputed();
      expect((await resolve(second.disputeId, { outcome: "requester" })).status).toBe(200);

      const page = await bodyOf(await asStaff("GET", "/admin/disputes?status=open&limit=100"));
      const listed = page.disputes.find((d: { dispute_id: string }) => d.dispute_id === first.disputeId);
      expect(listed).toEqual({
        dispute_id: first.disputeId,
        experiment_id: first.experimentId,
        reason: "results_incorrect",
        description: "the positive control failed",
        evidence_urls: [],
        ...UNRESOLVED_DISPUTE,
        raised_from: "pending_approval",
        created_at: clock.now().toISOString(),
        requester_account_id: account().accountId,
        operator_id: lab().operatorId,
        resolved_by: null,
      });
      expect(page.disputes.every((d: { status: string }) => d.status === "open")).toBe(true);
      expect(page.disputes.map((d: { dispute_id: string }) => d.dispute_id)).not.toContain(second.disputeId);
      expect(await counted("status=open")).toBe(openBefore + 1);
      expect(await counted("limit=100")).toBe(allBefore + 2);

      const countedPage = await bodyOf(await asStaff("GET", "/admin/disputes?limit=1&include_total=true"));
      expect(countedPage.pagination).toEqual({
        total: allBefore + 2,
        cursor: expect.any(String),
        has_more: true,
      });
      const uncounted = await bodyOf(await asStaff("GET", "/admin/disputes?limit=1"));
      expect(uncounted.pagination).toEqual({ total: null, cursor: expect.any(String), has_more: true });
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
        const next = await bodyOf(await asStaff("GET", `/admin/disputes?limit=1${query}`));
        seen.push(...next.disputes.map((d: { dispute_id: string }) => d.dispute_id));
        cursor = next.pagination.cursor;
      } while (cursor !== null);
      expect(seen).toHaveLength(allBefore + 2);
      expect(new Set(seen).size).toBe(seen.length);
      expect((await asStaff("GET", "/admin/disputes?status=closed")).status).toBe(422);
    });

    it("GET /admin/disputes/{id} gives the dispute, the experiment, the results and the evaluation", async () => {
      const { experimentId, disputeId } = await disputed();
      const response = await asStaff("GET", `/admin/disputes/${disputeId}`);
      expect(response.status).toBe(200);
      const body = await bodyOf(response);
      expect(Object.keys(body)).toEqual(["dispute", "experiment", "results", "evaluation"]);
      expect(body.dispute).toMatchObject({
        dispute_id: disputeId,
        status: "open",
        operator_id: lab().operatorId,
      });
      expect(body.experiment).toEqual(await bodyOf(await asStaff("GET", `/experiments/${experimentId}`)));
      expect(body.experiment.status).toBe("disputed");
      // As GET /experiments/{id}/results gives them: signed file URLs with their expiry.
      expect(body.results).toEqual(await bodyOf(await call("GET", `/experiments/${experimentId}/results`)));
      // The acceptance evaluation in its typed form's fields and order (D342).
      expect(Object.keys(body.evaluation)).toEqual(Object.keys(evaluationJson));
      const missing = await asStaff("GET", "/admin/disputes/dsp_00000000000000000000000404");
      expect(missing.status).toBe(404);
      expect((await bodyOf(missing)).error.code).toBe("not_found");
    });

    describe("POST /admin/disputes/{id}/resolve", () => {
      it("a split in USD is kept to the cent (a string '19.99' and a number); again is 409", async () => {
        const { experimentId, disputeId, stake } = await disputed();
        const operatorShare = Math.round(stake * 100 - 1999) / 100;
        await clock.advance(60_000);
        const response = await resolve(disputeId, {
          outcome: "split",
          requester_amount_usd: "19.99",
          operator_amount_usd: operatorShare,
          note: "half the plates were usable",
        });
        expect(response.status).toBe(200);
        const body = await bodyOf(response);
        expect(body.dispute).toMatchObject({
          status: "resolved",
          outcome: "split",
          requester_amount_usd: 19.99,
          operator_amount_usd: operatorShare,
          resolution_note: "half the plates were usable",
          resolved_by: await staffAccountId(),
          resolved_at: clock.now().toISOString(),
        });
        expect(body.experiment).toMatchObject({ experiment_id: experimentId, status: "resolved" });
        expect(await disputeOf(disputeId)).toEqual(body.dispute);

        const again = await resolve(disputeId, { outcome: "operator" });
        expect(again.status).toBe(409);
        expect((await bodyOf(again)).error.details).toEqual({ status: "resolved", allowed_from: ["open"] });
      });

      it("amounts that floats cannot hold convert without drift (4.35 + the rest of the stake)", async () => {
        const { disputeId, stake } = await disputed();
        const rest = Math.round(stake * 100 - 435) / 100;
        const response = await resolve(disputeId, {
          outcome: "split",
          requester_amount_usd: 4.35,
          operator_amount_usd: rest,
        });
        expect(response.status).toBe(200);
        expect((await bodyOf(response)).dispute).toMatchObject({
          requester_amount_usd: 4.35,
          operator_amount_usd: rest,
        });
      });

      it("requester and operator outcomes move the whole stake and take no amounts", async () => {
        const toRequester = await disputed();
        const response = await resolve(toRequester.disputeId, { outcome: "requester" });
        expect(response.status).toBe(200);
        expect((await bodyOf(response)).dispute).toMatchObject({
          requester_amount_usd: toRequester.stake,
          operator_amount_usd: 0,
          resolution_note: null,
        });
        const toOperator = await disputed();
        const paid = await bodyOf(await resolve(toOperator.disputeId, { outcome: "operator" }));
        expect(paid.dispute).toMatchObject({
          requester_amount_usd: 0,
          operator_amount_usd: toOperator.stake,
        });
      });

      it("refuses amounts with more than two decimals, negatives, missing or surplus amounts; the dispute stays open", async () => {
        const { disputeId, stake } = await disputed();
        const half = stake / 2;
        const split = { outcome: "split", requester_amount_usd: half, operator_amount_usd: half };
        const cases: Array<[unknown, string, string]> = [
          [{ ...split, requester_amount_usd: 0.1 + 0.2 }, "requester_amount_usd", "invalid_value"],
          [{ ...split, requester_amount_usd: "19.999" }, "requester_amount_usd", "invalid_value"],
          [{ ...split, operator_amount_usd: -1 }, "operator_amount_usd", "invalid_value"],
          [{ ...split, operator_amount_usd: "1e2" }, "operator_amount_usd", "invalid_value"],
          [{ ...split, operator_amount_usd: true }, "operator_amount_usd", "invalid_value"],
          [{ outcome: "split", requester_amount_usd: stake }, "operator_amount_usd", "missing_required"],
          [{ outcome: "operator", operator_amount_usd: stake }, "operator_amount_usd", "invalid_value"],
          [{ outcome: "draw" }, "outcome", "invalid_value"],
        ];
        for (const [body, path, code] of cases) {
          const response = await resolve(disputeId, body as object);
          expect(response.status, JSON.stringify(body)).toBe(422);
          expect((await bodyOf(response)).error.details.errors[0], JSON.stringify(body)).toMatchObject({
            path,
            code,
          });
        }
        expect((await disputeOf(disputeId)).status).toBe("open");
      });

      it("a split that does not add up to the stake is the service's 422", async () => {
        const { disputeId } = await disputed();
        const response = await resolve(disputeId, {
          outcome: "split",
          requester_amount_usd: 1,
          operator_amount_usd: 1,
        });
        expect(response.status).toBe(422);
        expect((await bodyOf(response)).error.code).toBe("validation_failed");
        expect((await disputeOf(disputeId)).status).toBe("open");
      });
    });
  },
);
