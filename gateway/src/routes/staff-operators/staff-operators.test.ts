import { Role, Tier } from "@petri/contracts/identity";
import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { gatewayWithServices } from "../../../test/support/fake-experiments.js";
import { FakeIdentity, bodyOf } from "../../../test/support/fake-identity.js";
import { FakeMarketplace } from "../../../test/support/fake-marketplace.js";
import { caller } from "../../../test/support/requests.js";

const SOURCE = "198.51.100.170";
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

let identity: FakeIdentity;
let marketplace: FakeMarketplace;
let staffId: string;
let call: ReturnType<typeof caller>;

beforeEach(async () => {
  const clock = new FakeClock("2026-03-02T10:00:00.000Z");
  identity = await FakeIdentity.create(clock);
  marketplace = new FakeMarketplace(clock);
  const app = await gatewayWithServices(identity, { marketplace });
  const staff = identity.addAccount({ role: Role.STAFF, tier: Tier.PRO });
  staffId = staff.account.id;
  call = caller(app, SOURCE, () => staff.secret);
});

describe("staff operator verification", () => {
  it("is staff only: requesters and operators get 403 without a call", async () => {
    const pending = marketplace.addOperator("usr_lab", "pending_verification");
    for (const role of [Role.REQUESTER, Role.OPERATOR]) {
      const key = identity.addAccount({ role }).secret;
      for (const [method, path, body] of [
        ["GET", "/admin/operators"],
        ["GET", `/admin/operators/${pending.id}`],
        ["POST", `/admin/operators/${pending.id}/verify`, VERIFICATION],
        ["POST", `/admin/operators/${pending.id}/reject`, { reason: "no" }],
        ["POST", `/admin/operators/${pending.id}/suspend`, { reason: "no" }],
        ["POST", `/admin/operators/${pending.id}/reinstate`],
      ] as const) {
        const response = await call(method, path, body, key);
        expect(response.status, `${method} ${path}`).toBe(403);
        expect((await bodyOf(response)).error.details).toEqual({ required_roles: ["staff"] });
      }
    }
    expect(marketplace.calls).toHaveLength(0);
  });

  it("lists operators by status, paged, as the staff member who asked", async () => {
    marketplace.addOperator("usr_a", "pending_verification", "Lab A");
    marketplace.addOperator("usr_b", "active", "Lab B");
    marketplace.addOperator("usr_c", "pending_verification", "Lab C");
    const page = await bodyOf(
      await call("GET", "/admin/operators?status=pending_verification&limit=1&include_total=true"),
    );
    expect(page.operators.map((o: any) => [o.lab_name, o.status])).toEqual([
      ["Lab A", "pending_verification"],
    ]);
    expect(page.pagination).toEqual({ total: 2, cursor: "o1", has_more: true });
    expect(marketplace.last("ListOperators")).toMatchObject({
      status: "pending_verification",
      limit: 1,
      cursor: "",
      includeTotal: true,
    });
    const uncounted = await bodyOf(await call("GET", "/admin/operators?status=pending_verification&limit=1"));
    expect(uncounted.pagination).toEqual({ total: null, cursor: "o1", has_more: true });
    expect(marketplace.calls[0]?.principal).toMatchObject({ accountId: staffId, role: "staff" });
    const all = await bodyOf(await call("GET", "/admin/operators"));
    expect(all.pagination.total).toBe(3);
    expect(marketplace.last("ListOperators")).toMatchObject({ status: "", limit: 20 });
    for (const query of ["status=verified", "limit=0", "limit=101"]) {
      expect((await call("GET", `/admin/operators?${query}`)).status, query).toBe(422);
    }
  });

  it("reads one operator; an unknown id is 404", async () => {
    const operator = marketplace.addOperator("usr_a", "active", "Lab A");
    const response = await call("GET", `/admin/operators/${operator.id}`);
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toMatchObject({
      operator_id: operator.id,
      lab_name: "Lab A",
      status: "active",
    });
    expect((await call("GET", "/admin/operators/op_nope")).status).toBe(404);
  });

  it("verify sends the record as JSON and answers the active operator with its verification", async () => {
    const operator = marketplace.addOperator("usr_a", "pending_verification");
    const response = await call("POST", `/admin/operators/${operator.id}/verify`, VERIFICATION);
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toMatchObject({ status: "active", verification: VERIFICATION });
    expect(JSON.parse(marketplace.last("VerifyOperator").verificationJson)).toEqual(VERIFICATION);

    const again = await call("POST", `/admin/operators/${operator.id}/verify`, VERIFICATION);
    expect(again.status).toBe(409);
    expect((await bodyOf(again)).error.details).toEqual({
      status: "active",
      allowed_from: ["pending_verification"],
    });

    const other = marketplace.addOperator("usr_b", "pending_verification");
    const invalid = await call("POST", `/admin/operators/${other.id}/verify`, { notes: "looked fine" });
    expect(invalid.status).toBe(422);
    expect((await bodyOf(invalid)).error.details.errors[0]).toMatchObject({
      path: "identity_verified",
      code: "missing_required",
    });
    expect((await call("POST", `/admin/operators/${other.id}/verify`, "[]")).status).toBe(422);
  });

  it("reject and suspend need a reason, which becomes status_reason; reinstate takes no body", async () => {
    const pending = marketplace.addOperator("usr_a", "pending_verification");
    for (const body of [{}, { reason: " " }, { reason: "x", extra: 1 }]) {
      expect(
        (await call("POST", `/admin/operators/${pending.id}/reject`, body)).status,
        JSON.stringify(body),
      ).toBe(422);
    }
    const rejected = await call("POST", `/admin/operators/${pending.id}/reject`, {
      reason: " no institution ",
    });
    expect(await bodyOf(rejected)).toMatchObject({ status: "rejected", status_reason: "no institution" });

    const active = marketplace.addOperator("usr_b", "active");
    const suspended = await call("POST", `/admin/operators/${active.id}/suspend`, {
      reason: "two disputes lost",
    });
    expect(await bodyOf(suspended)).toMatchObject({
      status: "suspended",
      status_reason: "two disputes lost",
    });
    const reinstated = await call("POST", `/admin/operators/${active.id}/reinstate`);
    expect(await bodyOf(reinstated)).toMatchObject({ status: "active", status_reason: null });
    const again = await call("POST", `/admin/operators/${active.id}/reinstate`);
    expect(again.status).toBe(409);
    expect((await bodyOf(again)).error.code).toBe("invalid_state");
  });
});
