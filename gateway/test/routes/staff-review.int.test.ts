import { type JsonObject, specialRequests, validRequests } from "@petri/fixtures";
import { describe, expect, it } from "vitest";
import { describeOnRealServices } from "../support/real-services.js";
import { bodyOf, from } from "../support/requests.js";

const SOURCE = "198.51.100.63";

/** A complete custom protocol (the CUSTOM fixture's, with its materials), as staff would propose it. */
const PROPOSED_PROTOCOL = {
  protocol_title: "Crystal violet biofilm dispersal",
  ...(validRequests.CUSTOM.custom_protocol as JsonObject),
  materials: validRequests.CUSTOM.materials_provided,
};

describeOnRealServices(
  "staff review routes on the real experiments service",
  { start: "2026-03-02T10:00:00.000Z", source: SOURCE },
  ({ call, petri, otherKey }) => {
    /** Calls as the bootstrapped staff account. */
    const asStaff = async (method: string, path: string, body?: unknown) =>
      call(method, path, body, null, { authorization: `Bearer ${await petri().staffToken()}` });

    /** A request of this test's account that waits for review (a custom protocol, or a design request). */
    async function pending(request: object = validRequests.CUSTOM) {
      const response = await call("POST", "/experiments", request);
      expect(response.status).toBe(201);
      const experiment = await bodyOf(response);
      expect(experiment.status).toBe("pending_review");
      return experiment as { experiment_id: string };
    }

    /** Every page of the review queue, followed by its cursor. */
    async function reviewQueue(path = "/admin/review-queue") {
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = cursor ? `?limit=2&cursor=${encodeURIComponent(cursor)}` : "?limit=2";
        const response = await asStaff("GET", `${path}${query}`);
        expect(response.status).toBe(200);
        const page = await bodyOf(response);
        for (const experiment of page.experiments) {
          expect(experiment.status).toBe("pending_review");
          ids.push(experiment.experiment_id);
        }
        cursor = page.pagination.cursor;
        expect(page.pagination.has_more).toBe(cursor !== null);
      } while (cursor !== null);
      return ids;
    }

    it("is staff only: a requester gets 403 forbidden, and nothing changes", async () => {
      const experiment = await pending();
      for (const key of [undefined, otherKey()]) {
        expect((await call("GET", "/admin/review-queue", undefined, key)).status).toBe(403);
        const approve = await call("POST", `/admin/experiments/${experiment.experiment_id}/approve`, {}, key);
        expect(approve.status).toBe(403);
        expect((await bodyOf(approve)).error.code).toBe("forbidden");
      }
      const after = await bodyOf(await call("GET", `/experiments/${experiment.experiment_id}`));
      expect(after.status).toBe("pending_review");
    });

    it("GET /admin/review-queue pages the pending_review experiments with their reasons; limit is bounded", async () => {
      const first = await pending();
      const second = await pending();
      const open = await bodyOf(await call("POST", "/experiments", validRequests.QPCR_EXPRESSION));
      expect(open.status).toBe("open");
      const ids = await reviewQueue();
      expect(ids).toEqual(expect.arrayContaining([first.experiment_id, second.experiment_id]));
      expect(ids).not.toContain(open.experiment_id);
      expect(new Set(ids).size).toBe(ids.length);
      const page = await bodyOf(await asStaff("GET", "/admin/review-queue?limit=100"));
      const listed = page.experiments.find(
        (experiment: { experiment_id: string }) => experiment.experiment_id === first.experiment_id,
      );
      expect(listed.review_reasons).toEqual(["custom_protocol"]);
      expect((await asStaff("GET", "/admin/review-queue?limit=0")).status).toBe(422);
    });

    it("approve (with or without a body) opens the experiment; approving it again is 409 with the allowed state", async () => {
      const one = await pending();
      const approved = await asStaff("POST", `/admin/experiments/${one.experiment_id}/approve`, {
        note: "looks fine",
      });
      expect(approved.status).toBe(200);
      expect((await bodyOf(approved)).status).toBe("open");

      const two = await pending();
      expect((await asStaff("POST", `/admin/experiments/${two.experiment_id}/approve`)).status).toBe(200);
      const again = await asStaff("POST", `/admin/experiments/${two.experiment_id}/approve`);
      expect(again.status).toBe(409);
      expect((await bodyOf(again)).error.details).toEqual({
        status: "open",
        allowed_from: ["pending_review"],
      });
    });

    it("reject needs a reason, cancels and refunds the whole hold", async () => {
      const experiment = await pending();
      const path = `/admin/experiments/${experiment.experiment_id}/reject`;
      expect((await asStaff("POST", path, {})).status).toBe(422);
      const rejected = await asStaff("POST", path, { reason: "unsafe" });
      expect(rejected.status).toBe(200);
      const body = await bodyOf(rejected);
      expect(body.status).toBe("cancelled");
      expect(body.cancellation).toMatchObject({
        reason: "unsafe",
        operator_compensation_usd: 0,
        refund_status: "full",
        cancelled_at: "2026-03-02T10:00:00.000Z",
      });
      expect(body.cancellation.refund_amount_usd).toBeGreaterThan(0);
    });

    it("protocol-proposal answers a design request with the proposal as sent; the protocol is required", async () => {
      const experiment = await pending(specialRequests.protocolDesign);
      const protocol = PROPOSED_PROTOCOL;
      const path = `/admin/experiments/${experiment.experiment_id}/protocol-proposal`;
      const missing = await asStaff("POST", path, { note: "x" });
      expect(missing.status).toBe(422);
      expect((await bodyOf(missing)).error.details.errors[0]).toMatchObject({
        path: "protocol",
        code: "missing_required",
      });
      const response = await asStaff("POST", path, { protocol, note: "first draft" });
      expect(response.status).toBe(200);
      const proposal = (await bodyOf(response)).protocol_proposal;
      expect(proposal).toEqual({
        revision: 1,
        status: "proposed",
        protocol,
        note: "first draft",
        proposed_by: expect.any(String),
        proposed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        decided_at: null,
        estimated_cost_cents: {
          low: expect.any(Number),
          typical: expect.any(Number),
          high: expect.any(Number),
        },
        comments: [
          {
            revision: 1,
            kind: "proposed",
            author_account_id: proposal.proposed_by,
            author_role: "staff",
            text: "first draft",
            at: proposal.proposed_at,
          },
        ],
      });
    });

    describe("the /staff paths, deprecated aliases of /admin", () => {
      it("still answer like their /admin twins, staff only", async () => {
        await pending();
        expect(await reviewQueue("/staff/review-queue")).toEqual(await reviewQueue());
        const approved = await pending();
        expect(
          (await asStaff("POST", `/staff/experiments/${approved.experiment_id}/approve`, {})).status,
        ).toBe(200);
        const rejected = await pending();
        const response = await asStaff("POST", `/staff/experiments/${rejected.experiment_id}/reject`, {
          reason: "unsafe",
        });
        expect((await bodyOf(response)).status).toBe("cancelled");
        const design = await pending(specialRequests.protocolDesign);
        const proposal = await asStaff(
          "POST",
          `/staff/experiments/${design.experiment_id}/protocol-proposal`,
          {
            protocol: PROPOSED_PROTOCOL,
          },
        );
        expect(proposal.status).toBe(200);
        expect((await call("GET", "/staff/review-queue")).status).toBe(403);
      });

      it("are marked deprecated in the OpenAPI document, each next to its /admin operation", async () => {
        const document = await bodyOf(await petri().app.request("/openapi.json", {}, from(SOURCE)));
        const legacy = Object.entries(document.paths as Record<string, Record<string, any>>).filter(
          ([path]) => path.startsWith("/staff/"),
        );
        expect(legacy.map(([path]) => path).sort()).toEqual([
          "/staff/accounts/{account_id}",
          "/staff/experiments/{experiment_id}/approve",
          "/staff/experiments/{experiment_id}/protocol-proposal",
          "/staff/experiments/{experiment_id}/reject",
          "/staff/review-queue",
          "/staff/signing-keys/rotate",
        ]);
        for (const [path, operations] of legacy) {
          for (const [method, operation] of Object.entries(operations)) {
            const successor = document.paths[path.replace(/^\/staff/, "/admin")]?.[method];
            expect(successor, `${method} ${path}`).toBeDefined();
            expect(operation.deprecated).toBe(true);
            expect(successor.deprecated).toBeUndefined();
            expect(operation.operationId).toBe(`${successor.operationId}Legacy`);
            expect(operation.requestBody).toEqual(successor.requestBody);
            expect(operation["x-roles"]).toEqual(["staff"]);
          }
        }
        const adminOperations = Object.entries(document.paths as Record<string, Record<string, any>>)
          .filter(([path]) => path.startsWith("/admin/"))
          .flatMap(([, operations]) => Object.values(operations));
        expect(adminOperations.every((operation) => operation["x-roles"].join() === "staff")).toBe(true);
      });
    });
  },
);
