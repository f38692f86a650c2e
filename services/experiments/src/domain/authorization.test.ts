import { ForbiddenError, NotFoundError, type Principal, UnauthenticatedError } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { assertRequester, assertVisible, authorize, canSee } from "./authorization.js";

const requester: Principal = { accountId: "usr_a", role: "requester", tier: "standard" };
const other: Principal = { accountId: "usr_b", role: "requester", tier: "standard" };
const staff: Principal = { accountId: "usr_s", role: "staff", tier: "standard" };
const system: Principal = { accountId: "system:gateway", role: "system", tier: "standard" };
const experiment = { id: "exp_1", requester_account_id: "usr_a" };

describe("experiments authorization", () => {
  it("acts for accounts only; staff procedures for staff only", () => {
    expect(() => authorize(undefined, "account")).toThrow(UnauthenticatedError);
    expect(() => authorize(system, "account")).toThrow(ForbiddenError);
    expect(() => authorize(system, "staff")).toThrow(ForbiddenError);
    expect(() => authorize(requester, "staff")).toThrow(ForbiddenError);
    expect(authorize(requester, "account")).toBe(requester);
    expect(authorize({ ...requester, role: "operator" }, "account").role).toBe("operator");
    expect(authorize(staff, "staff")).toBe(staff);
  });

  it("shows an experiment to its requester and staff; to others it does not exist", () => {
    expect(canSee(requester, "usr_a")).toBe(true);
    expect(canSee(staff, "usr_a")).toBe(true);
    expect(canSee(other, "usr_a")).toBe(false);
    expect(() => assertVisible(other, experiment)).toThrow(NotFoundError);
    expect(() => assertRequester(other, experiment)).toThrow(NotFoundError);
    expect(() => assertRequester(staff, experiment)).toThrow(ForbiddenError);
    expect(() => assertRequester(requester, experiment)).not.toThrow();
  });
});
