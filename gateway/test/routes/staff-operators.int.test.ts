import { expect, it } from "vitest";
import { marketplaceHelpers } from "../support/real-marketplace.js";
import { describeOnRealServices, eventually } from "../support/real-services.js";
import { bodyOf } from "../support/requests.js";

const VERIFICATION = {
  identity_verified: true,
  institution_verified: true,
  supervisor_approved: true,
  competencies_verified: ["MIC_MBC_ASSAY"],
  equipment_verified: true,
  max_bsl: "BSL-2",
  material_approvals: { human_samples: false },
  last_verification_date: "2026-03-01",
};

describeOnRealServices(
  "staff operator verification on the real services",
  { start: "2026-03-02T10:00:00.000Z", source: "198.51.100.170" },
  (scope) => {
    const { call, otherKey } = scope;
    const helpers = marketplaceHelpers(scope);
    const { asStaff, pendingLab } = helpers;
    const activeLab = (labName: string) => helpers.activeLab(labName, VERIFICATION);

    it("is staff only: requesters and operators get 403", async () => {
      const pending = await pendingLab("Lab Pending");
      const operator = await activeLab("Lab Operator");
      // The operator role reaches identity by event.
      await eventually(async () => {
        const me = await bodyOf(await call("GET", "/auth/me", undefined, operator.apiKey));
        return me.account?.role === "operator" ? true : undefined;
      }, "the operator role");
      for (const key of [otherKey(), operator.apiKey]) {
        for (const [method, path, body] of [
          ["GET", "/admin/operators"],
          ["GET", `/admin/operators/${pending.operatorId}`],
          ["POST", `/admin/operators/${pending.operatorId}/verify`, VERIFICATION],
          ["POST", `/admin/operators/${pending.operatorId}/reject`, { reason: "no" }],
          ["POST", `/admin/operators/${pending.operatorId}/suspend`, { reason: "no" }],
          ["POST", `/admin/operators/${pending.operatorId}/reinstate`],
        ] as const) {
          const response = await call(method, path, body, key);
          expect(response.status, `${method} ${path}`).toBe(403);
          expect((await bodyOf(response)).error.details).toEqual({ required_roles: ["staff"] });
        }
      }
      // Nothing happened to the lab.
      expect((await bodyOf(await asStaff("GET", `/admin/operators/${pending.operatorId}`))).status).toBe(
        "pending_verification",
      );
    });

    it("lists operators by status, paged, with the total only when asked", async () => {
      const first = await pendingLab("Lab A");
      await activeLab("Lab B");
      await pendingLab("Lab C");
      const page = await bodyOf(
        await asStaff("GET", "/admin/operators?status=pending_verification&limit=1&include_total=true"),
      );
      expect(page.operators).toHaveLength(1);
      expect(page.operators[0].status).toBe("pending_verification");
      expect(page.pagination).toEqual({
        total: expect.any(Number),
        cursor: expect.any(String),
        has_more: true,
      });
      expect(page.pagination.total).toBeGreaterThanOrEqual(2);
      const next = await bodyOf(
        await asStaff(
          "GET",
          `/admin/operators?status=pending_verification&limit=1&cursor=${encodeURIComponent(page.pagination.cursor)}`,
        ),
      );
      expect(next.pagination.total).toBeNull();
      expect(next.operators).toHaveLength(1);
      expect(next.operators[0].operator_id).not.toBe(page.operators[0].operator_id);

      const all = await bodyOf(await asStaff("GET", "/admin/operators?limit=100&include_total=true"));
      expect(all.pagination.total).toBeGreaterThan(page.pagination.total);
      expect(all.operators.map((o: any) => o.operator_id)).toContain(first.operatorId);
      expect(new Set(all.operators.map((o: any) => o.status))).toEqual(
        new Set(["pending_verification", "active"]),
      );
      for (const query of ["status=verified", "limit=0", "limit=101"]) {
        const refused = await asStaff("GET", `/admin/operators?${query}`);
        expect(refused.status, query).toBe(422);
        expect((await bodyOf(refused)).error.code).toBe("validation_failed");
      }
    });

    it("reads one operator; an unknown id is 404", async () => {
      const { operatorId } = await activeLab("Lab One");
      const response = await asStaff("GET", `/admin/operators/${operatorId}`);
      expect(response.status).toBe(200);
      expect(await bodyOf(response)).toMatchObject({
        operator_id: operatorId,
        lab_name: "Lab One",
        status: "active",
      });
      const unknown = await asStaff("GET", "/admin/operators/op_nope");
      expect(unknown.status).toBe(404);
      expect((await bodyOf(unknown)).error.code).toBe("not_found");
    });

    it("verify answers the active operator with its verification; a rejected one is 409; a bad record 422", async () => {
      const { operatorId } = await pendingLab("Lab Verify");
      const response = await asStaff("POST", `/admin/operators/${operatorId}/verify`, VERIFICATION);
      expect(response.status).toBe(200);
      expect(await bodyOf(response)).toMatchObject({ status: "active", verification: VERIFICATION });

      const rejected = await pendingLab("Lab Rejected");
      await asStaff("POST", `/admin/operators/${rejected.operatorId}/reject`, { reason: "no institution" });
      const refused = await asStaff("POST", `/admin/operators/${rejected.operatorId}/verify`, VERIFICATION);
      expect(refused.status).toBe(409);
      expect((await bodyOf(refused)).error).toMatchObject({
        code: "invalid_state",
        details: { status: "rejected", allowed_from: ["pending_verification", "active"] },
      });

      const other = await pendingLab("Lab Invalid");
      const invalid = await asStaff("POST", `/admin/operators/${other.operatorId}/verify`, {
        notes: "looked fine",
      });
      expect(invalid.status).toBe(422);
      expect((await bodyOf(invalid)).error.details.errors[0]).toMatchObject({
        path: "identity_verified",
        code: "missing_required",
      });
      expect((await asStaff("POST", `/admin/operators/${other.operatorId}/verify`, "[]")).status).toBe(422);
    });

    it("reject and suspend need a reason, which becomes status_reason; reinstate takes no body", async () => {
      const pending = await pendingLab("Lab Reject");
      for (const body of [{}, { reason: " " }, { reason: "x", extra: 1 }]) {
        expect(
          (await asStaff("POST", `/admin/operators/${pending.operatorId}/reject`, body)).status,
          JSON.stringify(body),
        ).toBe(422);
      }
      const rejected = await asStaff("POST", `/admin/operators/${pending.operatorId}/reject`, {
        reason: " no institution ",
      });
      expect(await bodyOf(rejected)).toMatchObject({ status: "rejected", status_reason: "no institution" });

      const active = await activeLab("Lab Suspend");
      const suspended = await asStaff("POST", `/admin/operators/${active.operatorId}/suspend`, {
        reason: "two disputes lost",
      });
      expect(await bodyOf(suspended)).toMatchObject({
        status: "suspended",
        status_reason: "two disputes lost",
      });
      const reinstated = await asStaff("POST", `/admin/operators/${active.operatorId}/reinstate`);
      expect(await bodyOf(reinstated)).toMatchObject({ status: "active", status_reason: null });
      const again = await asStaff("POST", `/admin/operators/${active.operatorId}/reinstate`);
      expect(again.status).toBe(409);
      expect((await bodyOf(again)).error.code).toBe("invalid_state");
    });
  },
);
