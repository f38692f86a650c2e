import { specialRequests, validRequests } from "@petri/fixtures";
import { describe, expect, it } from "vitest";
import { marketplaceHelpers } from "../support/real-marketplace.js";
import { describeWithSharedAccounts } from "../support/real-services-shared.js";
import { bodyOf } from "../support/requests.js";

const { constraints: _constraints, ...MIC } = validRequests.MIC_MBC_ASSAY;
/** A MIC request in the service's canonical form (the budget where intake stores it). */
const REQUEST = { ...MIC, turnaround_budget: { budget_max_usd: 300 } };
const DAY_MS = 86_400_000;

describeWithSharedAccounts(
  "the experiment records on the real services",
  { start: "2026-03-02T10:00:00.000Z", source: "198.51.100.61", labName: "Lab One" },
  (scope) => {
    const { call, clock, account, otherKey, lab, petri, asStaff } = scope;
    const { claim } = marketplaceHelpers(scope);

    /** A new experiment of `key`'s account (the shared one by default): its create answer. */
    async function posted(request: object = REQUEST, key?: string) {
      const response = await call("POST", "/experiments", request, key);
      expect(response.status, await response.clone().text()).toBe(201);
      return bodyOf(response);
    }

    /** An experiment of the shared account the shared lab has claimed. */
    async function claimed() {
      const created = await posted();
      const answer = await claim(lab().apiKey, created.experiment_id);
      expect(answer.status).toBe(200);
      return { created, claim: await bodyOf(answer) };
    }

    describe("GET /experiments", () => {
      it("filters by status and creation time and pages with an opaque cursor", async () => {
        const { apiKey } = await petri().signUp({ tier: "pro" });
        const before = clock.now().toISOString();
        await posted(REQUEST, apiKey);
        await clock.advance(DAY_MS);
        const ids: string[] = [];
        for (let i = 0; i < 3; i += 1) {
          // A second apart, so newest first is one order.
          await clock.advance(1_000);
          ids.push((await posted({ ...REQUEST, title: `MIC run ${i}` }, apiKey)).experiment_id);
        }
        await call("POST", "/experiments?draft=true", { title: "half done" }, apiKey);
        const after = new Date(Date.parse(before) + 3_600_000);
        // An hour after the three, written with an offset: its wall time is an hour ahead of UTC.
        const beforeWithOffset = new Date(clock.now().getTime() + 2 * 3_600_000)
          .toISOString()
          .replace("Z", "+01:00");
        const query = [
          "status=open",
          `created_after=${after.toISOString()}`,
          `created_before=${encodeURIComponent(beforeWithOffset)}`,
          "limit=2",
          "include_total=true",
        ].join("&");
        const first = await call("GET", `/experiments?${query}`, undefined, apiKey);
        expect(first.status).toBe(200);
        const page = await bodyOf(first);
        expect(page.pagination).toEqual({ total: 3, cursor: expect.any(String), has_more: true });
        expect(page.experiments).toHaveLength(2);
        const details = await bodyOf(await call("GET", `/experiments/${ids[2]}`, undefined, apiKey));
        expect(page.experiments[0]).toEqual({
          experiment_id: ids[2],
          status: "open",
          experiment_type: "MIC_MBC_ASSAY",
          title: "MIC run 2",
          estimated_cost_usd: details.estimate.estimated_cost_usd.typical,
          estimated_turnaround_days: details.estimate.estimated_turnaround_days.standard,
          review_reasons: [],
          created_at: details.created_at,
          updated_at: details.updated_at,
          links: details.links,
        });
        const next = `/experiments?${query.replace("&include_total=true", "")}&cursor=${encodeURIComponent(page.pagination.cursor)}`;
        const second = await bodyOf(await call("GET", next, undefined, apiKey));
        expect(second.experiments.map((e: { experiment_id: string }) => e.experiment_id)).toEqual([ids[0]]);
        // Not asked for, so not counted: null.
        expect(second.pagination).toEqual({ total: null, cursor: null, has_more: false });
        const all = await bodyOf(await call("GET", "/experiments?include_total=true", undefined, apiKey));
        expect(all.pagination.total).toBe(5);
        expect((await call("GET", "/experiments?include_total=yes", undefined, apiKey)).status).toBe(422);
      });

      it("limit defaults to 20", async () => {
        const { apiKey } = await petri().signUp({ tier: "pro" });
        for (let i = 0; i < 21; i += 1)
          await call("POST", "/experiments?draft=true", { title: `draft ${i}` }, apiKey);
        const page = await bodyOf(await call("GET", "/experiments", undefined, apiKey));
        expect(page.experiments).toHaveLength(20);
        expect(page.pagination.has_more).toBe(true);
      });

      it.each([
        "limit=0",
        "limit=101",
        "limit=abc",
        "limit=2.5",
        "status=archived",
        "created_after=yesterday",
        "created_before=2026-03-01",
        "cursor=",
      ])("GET /experiments?%s is 422", async (query) => {
        const response = await call("GET", `/experiments?${query}`);
        expect(response.status).toBe(422);
        const body = await bodyOf(response);
        expect(body.error.code).toBe("validation_failed");
        expect(body.error.details.errors[0].path).toBe(query.split("=")[0]);
      });
    });

    describe("GET /experiments/{id}", () => {
      it("gives the full details: request, estimate in USD, operator, times and links", async () => {
        const { created, claim: claimAnswer } = await claimed();
        const id = created.experiment_id;
        const response = await call("GET", `/experiments/${id}`);
        expect(response.status).toBe(200);
        const { payment, request, ...details } = await bodyOf(response);
        // Stored as sent, with intake's defaults added (D348).
        expect(request).toMatchObject(REQUEST);
        const usd = expect.any(Number);
        expect(details).toEqual({
          experiment_id: id,
          status: "claimed",
          experiment_type: "MIC_MBC_ASSAY",
          title: validRequests.MIC_MBC_ASSAY.title,
          requester_account_id: account().accountId,
          estimate: {
            estimated_cost_usd: { low: usd, typical: created.estimated_cost_usd, high: usd },
            estimated_turnaround_days: { standard: created.estimated_turnaround_days, expedited: usd },
            cost_breakdown: {
              materials: usd,
              labor: usd,
              equipment: usd,
              platform_fee: usd,
              privacy_premium: usd,
            },
            operator_availability: expect.any(String),
          },
          hold_amount_usd: created.estimated_cost_usd,
          operator: {
            operator_id: lab().operatorId,
            lab_name: "Lab One",
            claimed_at: claimAnswer.claimed_at,
            deadline: claimAnswer.deadline,
            estimated_start_date: "2026-03-09",
          },
          issues: [],
          approval: null,
          dispute: null,
          review_reasons: [],
          safety_flags: [],
          protocol_proposal: null,
          cancellation: null,
          source_hypothesis_id: null,
          created_at: created.created_at,
          updated_at: claimAnswer.claimed_at,
          submitted_at: created.created_at,
          started_at: null,
          results_submitted_at: null,
          completed_at: null,
          links: created.links,
        });
        // The hold arrives by event (payments.int.test.ts waits for it): not yet, or held.
        expect(["not_held", "held"]).toContain(payment.status);
      });

      it("another account's experiment is 404, the same as one that does not exist", async () => {
        const theirs = await posted(REQUEST, otherKey());
        const response = await call("GET", `/experiments/${theirs.experiment_id}`);
        expect(response.status).toBe(404);
        const missing = await call("GET", "/experiments/exp_00000000000000000000000404");
        expect(missing.status).toBe(404);
        const [hidden, absent] = [(await bodyOf(response)).error, (await bodyOf(missing)).error];
        expect(hidden.code).toBe("not_found");
        expect(absent.code).toBe("not_found");
      });

      it("staff see any experiment", async () => {
        const theirs = await posted(REQUEST, otherKey());
        const seen = await asStaff("GET", `/experiments/${theirs.experiment_id}`);
        expect(seen.status).toBe(200);
        expect((await bodyOf(seen)).experiment_id).toBe(theirs.experiment_id);
      });
    });

    describe("PATCH /experiments/{id}", () => {
      it("applies the patch and answers with the updated details, as GET then gives them", async () => {
        const created = await posted();
        const patch = { turnaround_budget: { budget_max_usd: 900 }, turnaround_priority: "expedited" };
        const response = await call("PATCH", `/experiments/${created.experiment_id}`, patch);
        expect(response.status).toBe(200);
        const updated = await bodyOf(response);
        expect(updated.request).toMatchObject({ turnaround_budget: { budget_max_usd: 900 } });
        expect(updated.request.turnaround_budget.priority ?? updated.request.turnaround_priority).toBe(
          "expedited",
        );
        // The payment section follows the ledger's events (the hold, then its adjustment to the
        // new budget) and may move between the two answers; the rest is the PATCH's.
        const read = await bodyOf(await call("GET", `/experiments/${created.experiment_id}`));
        expect({ ...read, payment: undefined }).toEqual({ ...updated, payment: undefined });
        expect(["not_held", "held"]).toContain(read.payment.status);
      });

      it("after a claim: 409 invalid_state with details.status and details.allowed_from", async () => {
        const { created } = await claimed();
        const response = await call("PATCH", `/experiments/${created.experiment_id}`, {
          turnaround_days: 20,
        });
        expect(response.status).toBe(409);
        expect((await bodyOf(response)).error).toEqual({
          code: "invalid_state",
          message: expect.any(String),
          details: { status: "claimed", allowed_from: ["draft", "pending_review", "open"] },
        });
      });

      it("an empty patch or another field is 422, and the experiment is unchanged", async () => {
        const created = await posted();
        const path = `/experiments/${created.experiment_id}`;
        const before = await bodyOf(await call("GET", path));
        const empty = await call("PATCH", path, {});
        expect(empty.status).toBe(422);
        expect((await bodyOf(empty)).error.details.errors[0].message).toMatch(/at least one of/);
        const other = await call("PATCH", path, { title: "new" });
        expect(other.status).toBe(422);
        expect((await bodyOf(other)).error.details.errors).toEqual([
          { field: "title", path: "title", code: "invalid_value", message: "unknown field" },
        ]);
        // Only the payment section (the ledger's hold, by event) may have moved meanwhile.
        const after = await bodyOf(await call("GET", path));
        expect({ ...after, payment: undefined }).toEqual({ ...before, payment: undefined });
      });

      it("another account's experiment is 404", async () => {
        const theirs = await posted(REQUEST, otherKey());
        const path = `/experiments/${theirs.experiment_id}`;
        expect((await call("PATCH", path, { turnaround_days: 9 })).status).toBe(404);
        expect(
          (await bodyOf(await call("GET", path, undefined, otherKey()))).request.turnaround_days,
        ).not.toBe(9);
      });
    });

    describe("DELETE /experiments/{id}", () => {
      it("cancels a claimed experiment with the reason and reports the refund in USD", async () => {
        const { created } = await claimed();
        const path = `/experiments/${created.experiment_id}`;
        const response = await call("DELETE", path, { reason: "funding withdrawn" });
        expect(response.status).toBe(200);
        const body = await bodyOf(response);
        expect(body).toEqual({
          experiment_id: created.experiment_id,
          status: "cancelled",
          reason: "funding withdrawn",
          refund_amount_usd: expect.any(Number),
          refund_status: "partial",
          operator_compensation_usd: expect.any(Number),
          cancelled_at: clock.now().toISOString(),
        });
        expect(body.operator_compensation_usd).toBeGreaterThan(0);
        expect(Math.round((body.refund_amount_usd + body.operator_compensation_usd) * 100)).toBe(
          Math.round(created.estimated_cost_usd * 100),
        );
        expect((await bodyOf(await call("GET", path))).cancellation).toMatchObject({
          reason: "funding withdrawn",
        });
        const again = await call("DELETE", path, { reason: "again" });
        expect(again.status).toBe(409);
        expect((await bodyOf(again)).error.details.status).toBe("cancelled");
      });

      it("needs a reason; the experiment stays open", async () => {
        const created = await posted();
        const path = `/experiments/${created.experiment_id}`;
        for (const body of [undefined, {}, { reason: "  " }]) {
          const response = await call("DELETE", path, body);
          expect(response.status, JSON.stringify(body)).toBe(422);
          expect((await bodyOf(response)).error.details.errors[0].path).toBe("reason");
        }
        expect((await bodyOf(await call("GET", path))).status).toBe("open");
      });

      it("another account's experiment is 404", async () => {
        const theirs = await posted(REQUEST, otherKey());
        const path = `/experiments/${theirs.experiment_id}`;
        expect((await call("DELETE", path, { reason: "mine now" })).status).toBe(404);
        expect((await bodyOf(await call("GET", path, undefined, otherKey()))).status).toBe("open");
      });
    });

    describe("protocol proposals (requester side)", () => {
      it("accept needs a proposal; request-changes records the comments; accept opens the experiment", async () => {
        const created = await posted(specialRequests.protocolDesign);
        const id = created.experiment_id;
        expect(created.status).toBe("pending_review");
        const none = await call("POST", `/experiments/${id}/protocol-proposal/accept`);
        expect(none.status).toBe(409);
        expect((await bodyOf(none)).error.code).toBe("no_pending_proposal");

        const protocol = {
          protocol_title: "Crystal violet biofilm dispersal",
          ...(validRequests.CUSTOM.custom_protocol as object),
          materials: validRequests.CUSTOM.materials_provided,
        };
        const propose = (note: string) =>
          asStaff("POST", `/admin/experiments/${id}/protocol-proposal`, { protocol, note });
        expect((await propose("first draft")).status).toBe(200);
        const changes = await call("POST", `/experiments/${id}/protocol-proposal/request-changes`, {
          comments: "add a positive control",
        });
        expect(changes.status).toBe(200);
        const changed = await bodyOf(changes);
        expect(changed.protocol_proposal).toMatchObject({ revision: 1, status: "changes_requested" });
        expect(JSON.stringify(changed)).toContain("add a positive control");

        expect((await propose("with a positive control")).status).toBe(200);
        const accepted = await call("POST", `/experiments/${id}/protocol-proposal/accept`);
        expect(accepted.status).toBe(200);
        const opened = await bodyOf(accepted);
        expect(opened.status).toBe("open");
        expect(opened.protocol_proposal).toMatchObject({ revision: 2, status: "accepted" });
      });
    });
  },
);
