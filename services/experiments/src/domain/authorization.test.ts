import { ForbiddenError, NotFoundError, type Principal, UnauthenticatedError } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import {
  assertAssignedOperator,
  assertRequester,
  assertVisible,
  authorize,
  canSee,
  isAssignedOperator,
} from "./authorization.js";

const requester: Principal = { accountId: "usr_a", role: "requester", tier: "standard" };
const other: Principal = { accountId: "usr_b", role: "requester", tier: "standard" };
const staff: Principal = { accountId: "usr_s", role: "staff", tier: "standard" };
const operator: Principal = { accountId: "usr_o", role: "operator", tier: "standard", operatorId: "op_1" };
const otherOperator: Principal = {
  accountId: "usr_p",
  role: "operator",
  tier: "standard",
  operatorId: "op_2",
};
const system: Principal = { accountId: "system:gateway", role: "system", tier: "standard" };
const experiment = { id: "exp_1", requester_account_id: "usr_a" };
const claimed = { ...experiment, operator_account_id: "usr_o" };

describe("experiments authorization", () => {
  it("acts for accounts only; staff procedures for staff only", () => {
    expect(() => authorize(undefined, "account")).toThrow(UnauthenticatedError);
    expect(() => authorize(system, "account")).toThrow(ForbiddenError);
    expect(() => authorize(system, "staff")).toThrow(ForbiddenError);
    expect(() => authorize(requester, "staff")).toThrow(ForbiddenError);
    expect(() => authorize(operator, "staff")).toThrow(ForbiddenError);
    expect(authorize(requester, "account")).toBe(requester);
    expect(authorize({ ...requester, role: "operator" }, "account").role).toBe("operator");
    expect(authorize(staff, "staff")).toBe(staff);
  });

  it("lets the gateway's system principal (and accounts) follow a signed link, never an anonymous call", () => {
    expect(authorize(system, "signed_link")).toBe(system);
    expect(authorize(requester, "signed_link")).toBe(requester);
    expect(() => authorize(undefined, "signed_link")).toThrow(UnauthenticatedError);
  });

  it("shows an experiment to its requester and staff; to others it does not exist", () => {
    expect(canSee(requester, experiment)).toBe(true);
    expect(canSee(staff, experiment)).toBe(true);
    expect(canSee(other, experiment)).toBe(false);
    expect(() => assertVisible(other, experiment)).toThrow(NotFoundError);
    expect(() => assertRequester(other, experiment)).toThrow(NotFoundError);
    expect(() => assertRequester(staff, experiment)).toThrow(ForbiddenError);
    expect(() => assertRequester(requester, experiment)).not.toThrow();
  });

  it("shows a claimed experiment to its operator too, but not to other operators", () => {
    expect(canSee(operator, experiment)).toBe(false);
    expect(canSee(operator, claimed)).toBe(true);
    expect(canSee(otherOperator, claimed)).toBe(false);
    expect(isAssignedOperator(operator, claimed)).toBe(true);
    expect(isAssignedOperator(operator, { ...experiment, operator_account_id: null })).toBe(false);
    expect(() => assertVisible(otherOperator, claimed)).toThrow(NotFoundError);
  });

  it("lets only the assigned operator act as operator: 403 to requester and staff, 404 to others", () => {
    expect(() => assertAssignedOperator(operator, claimed)).not.toThrow();
    expect(() => assertAssignedOperator(requester, claimed)).toThrow(ForbiddenError);
    expect(() => assertAssignedOperator(staff, claimed)).toThrow(ForbiddenError);
    expect(() => assertAssignedOperator(otherOperator, claimed)).toThrow(NotFoundError);
    expect(() => assertAssignedOperator(operator, experiment)).toThrow(NotFoundError);
  });

  it("keeps requester actions from the assigned operator (403)", () => {
    expect(() => assertRequester(operator, claimed)).toThrow(ForbiddenError);
  });
});
